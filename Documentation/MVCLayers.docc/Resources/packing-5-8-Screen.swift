import MVCObservation
import MVCTracing
import PackingCore

/// The View: draws the list, or the editor while one is open.
///
/// It hands each command to the presenter it is meant for, and decides nothing.
@MainActor
final class Screen {
    private let list: PackingListPresenter
    private let trip: TripPresenter
    private let tracer: HopTracer
    private var editor: ItemEditor?
    private var isPerforming = false

    init(list: PackingListPresenter, trip: TripPresenter, tracer: HopTracer) {
        self.list = list
        self.trip = trip
        self.tracer = tracer
    }

    func draw() {
        print(editor?.viewState.text ?? list.viewState.text)
    }

    /// Carries out one command line, then draws; `false` to quit.
    func perform(_ line: String) async -> Bool {
        let words = line.split(separator: " ", maxSplits: 1).map(String.init)
        guard let command = words.first else { return true }
        let argument = words.count > 1 ? words[1] : ""
        tracer.record(from: .view, to: .presenter, "\(command) \(argument)")
        isPerforming = true
        defer { isPerforming = false }
        if let editor {
            perform(command, argument, in: editor)
        } else if await !performOnList(command, argument) {
            return false
        }
        draw()
        return true
    }

    /// A command for the list's presenter (or the trip's); `false` for `quit`.
    private func performOnList(_ command: String, _ argument: String) async -> Bool {
        let row = Int(argument) ?? 0
        switch command {
        case "add": list.addTapped(name: argument)
        case "new": editor = list.newTapped()
        case "edit": editor = list.editTapped(row: row)
        case "pack": list.packTapped(row: row)
        case "weigh": await list.weighTapped(row: row)
        case "undo": list.undoTapped()
        case "redo": list.redoTapped()
        case "trip": trip.renameTapped(to: argument)
        case "list": break
        case "quit": return false
        default: print("error: unknown command \(command)")
        }
        return true
    }

    /// A command for the open editor: a field's name sets that field; save and cancel end it.
    private func perform(_ command: String, _ argument: String, in editor: ItemEditor) {
        switch command {
        case "save": if editor.saveTapped() { self.editor = nil }
        case "cancel":
            editor.cancelTapped()
            self.editor = nil
        default:
            if !editor.fieldChanged(command, to: argument) {
                print("error: not a field: \(command)")
            }
        }
    }
}
