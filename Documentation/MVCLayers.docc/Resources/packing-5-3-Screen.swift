import MVCObservation
import MVCTracing
import PackingCore

/// The View: draws the list, or the editor while one is open.
///
/// It turns each command into an intent, and decides nothing.
@MainActor
final class Screen {
    private let list: PackingListPresenter
    private let trip: Trip
    private let tracer: HopTracer
    private var editor: ItemEditor?
    private var token: ObservationToken?

    init(list: PackingListPresenter, trip: Trip, tracer: HopTracer) {
        self.list = list
        self.trip = trip
        self.tracer = tracer
        // The trip's count follows the list: a per-property observer hears each change of it.
        token = list.observeViewState { [trip] in trip.itemsLeft.value = $0.itemsLeft }
    }

    func draw() {
        if let editor {
            print(Self.text(for: editor.viewState))
        } else {
            print(Self.text(for: list.viewState))
        }
    }

    static func text(for state: PackingListViewState) -> String {
        var lines = ["Packing list (\(state.itemsLeft) left)"]
        for (index, row) in state.rows.enumerated() {
            let quantity = row.quantity > 1 ? " ×\(row.quantity)" : ""
            let weight = row.grams.map { " (\($0) g)" } ?? ""
            lines.append(
                "  \(index + 1). [\(row.isPacked ? "x" : " ")] \(row.name)\(quantity)\(weight)")
        }
        if let undo = state.undoLabel { lines.append("  [Undo \(undo)]") }
        if let error = state.error { lines.append("  ! \(error)") }
        return lines.joined(separator: "\n")
    }

    static func text(for state: ItemEditorViewState) -> String {
        var lines = ["Editing an item (a field's name and its text, then save or cancel)"]
        for field in state.fields {
            lines.append("  \(field.name): \(field.text.isEmpty ? "(empty)" : field.text)")
            if let problem = field.problem { lines.append("    ! \(problem)") }
        }
        if let error = state.error { lines.append("  ! \(error)") }
        return lines.joined(separator: "\n")
    }
}
