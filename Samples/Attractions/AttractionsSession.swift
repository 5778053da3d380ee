import MVCObservation
import MVCPresenter
import MVCTracing
import SampleSupport

/// Carries out the user's commands, sending each to the list presenter or to the open editor.
///
/// Which commands are allowed depends on whether an editor is open.
@MainActor
final class AttractionsSession {
    private let list: AttractionListPresenter
    private let screen: AttractionsScreen
    private let console: Console
    private let tracer: HopTracer
    private var editor: AttractionDetailPresenter?
    private let settle: @MainActor () async -> Void

    /// - Parameter settle: Waits for the work a command started below the store (a database's
    ///   write); in a script, each command's hops are then all traced before its screen.
    init(
        list: AttractionListPresenter, screen: AttractionsScreen, console: Console,
        tracer: HopTracer, settle: @escaping @MainActor () async -> Void = {}
    ) {
        self.list = list
        self.screen = screen
        self.console = console
        self.tracer = tracer
        self.settle = settle
    }

    /// Whether an editor is open with unsaved work.
    var isEditing: Bool { editor != nil }

    /// Performs one command line.
    func handle(_ line: String) async -> CommandOutcome {
        screen.isWaitingForCommand = false
        defer { screen.isWaitingForCommand = true }
        let command: AttractionsCommand
        do throws(CommandError) {
            command = try AttractionsCommand(parsing: line)
        } catch {
            return .failed(error.description)
        }
        let outcome = perform(command)
        // Not for `quit`: closing writes what is pending, within its own patience.
        if !console.isInteractive, outcome != .quit { await settle() }
        screen.renderIfNeeded()
        return outcome
    }

    /// Abandons an open edit, as leaving the program does.
    func cancelOpenEdit() {
        guard let editor else { return }
        tracer.record(from: .view, to: .presenter, "cancelTapped()")
        editor.cancelTapped()
        close()
        console.print("(the open edit was not saved)")
    }

    private func perform(_ command: AttractionsCommand) -> CommandOutcome {
        switch command {
        case .help:
            console.print(AttractionsCommand.summary)
            return .succeeded
        case .quit:
            return .quit
        case .field, .save, .cancel:
            guard let editor else {
                return .failed("no editor is open; use 'new' or 'edit <row>' first")
            }
            return perform(command, in: editor)
        case .list, .add, .new, .edit, .move, .delete, .page, .undo, .redo:
            guard editor == nil else {
                return .failed("an editor is open; 'save' or 'cancel' it first")
            }
            return performOnList(command)
        }
    }

    private func performOnList(_ command: AttractionsCommand) -> CommandOutcome {
        let succeeded: Bool
        switch command {
        case .list:
            screen.render()
            succeeded = true
        case .add(let name):
            intent("addTapped(name: “\(name)”)")
            succeeded = list.addTapped(name: name)
            if succeeded { screen.reveal(row: list.viewState.rows.count - 1) }
        case .new:
            intent("newTapped()")
            open(list.newTapped())
            succeeded = true
        case .edit(let row):
            intent("editTapped(at: \(row - 1)), row \(row) on screen")
            let editor = list.editTapped(at: row - 1)
            if editor != nil { screen.reveal(row: row - 1) }
            if let editor { open(editor) }
            succeeded = editor != nil
        case .move(let source, let destination):
            intent("moveTapped(from: \(source - 1), to: \(destination - 1))")
            succeeded = list.moveTapped(from: source - 1, to: destination - 1)
            if succeeded { screen.reveal(row: destination - 1) }
        case .delete(let row):
            intent("deleteTapped(at: \(row - 1)), row \(row) on screen")
            succeeded = list.deleteTapped(at: row - 1)
            if succeeded { screen.reveal(row: min(row - 1, list.viewState.rows.count - 1)) }
        case .page(let page):
            guard page <= screen.pageCount else {
                return .failed(
                    "there is no page \(page): the list has \(screen.pageCount) page\(screen.pageCount == 1 ? "" : "s")"
                )
            }
            screen.show(page: page)
            succeeded = true
        case .undo:
            intent("undoTapped()")
            succeeded = list.undoTapped()
        case .redo:
            intent("redoTapped()")
            succeeded = list.redoTapped()
        case .field, .save, .cancel, .help, .quit:
            preconditionFailure("\(command) is not a list command")
        }
        return succeeded ? .succeeded : .failed(list.viewState.lastError ?? "\(command) failed")
    }

    private func perform(_ command: AttractionsCommand, in editor: AttractionDetailPresenter)
        -> CommandOutcome
    {
        switch command {
        case .field(let name, let text):
            intent("fieldChanged(\"\(name)\", to: “\(text)”)")
            editor.fieldChanged(name, to: text)
        case .save:
            intent("saveTapped()")
            guard editor.saveTapped() else {
                return .failed("not saved: \(editor.viewState.saveError ?? "the editor refused")")
            }
            close()
        case .cancel:
            intent("cancelTapped()")
            editor.cancelTapped()
            close()
        default:
            preconditionFailure("\(command) is not an editor command")
        }
        return .succeeded
    }

    private func open(_ editor: AttractionDetailPresenter) {
        self.editor = editor
        screen.show(editor: editor)
    }

    private func close() {
        editor = nil
        screen.show(editor: nil)
    }

    private func intent(_ name: String) {
        tracer.record(from: .view, to: .presenter, name)
    }
}
