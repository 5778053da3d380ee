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

    init(list: PackingListPresenter, trip: TripPresenter, tracer: HopTracer) {
        self.list = list
        self.trip = trip
        self.tracer = tracer
    }

    func draw() {
        print(editor?.viewState.text ?? list.viewState.text)
    }
}
