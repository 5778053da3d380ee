import Foundation
import MVCDocumentStore
import MVCListStore
import PackingCore

/// The packing list on the terminal: reads one command per line, draws the screen after each.
@main
struct PackingList {
    @MainActor
    static func main() async {
        let options = Options(Array(CommandLine.arguments.dropFirst()))
        let opened: (store: ListStore<Item>, saver: CoalescingSaver<[Item]>)
        do {
            opened = try await ListStore<Item>.open(
                at: URL(fileURLWithPath: options.path), watchInterval: .seconds(1),
                tracer: options.tracer)
        } catch {
            print("error: \(error)")
            exit(1)
        }
        let manager = PackingManager(service: SimulatedWeights(["socks": 120, "hat": 80]))
        let list = PackingListPresenter(
            store: opened.store, manager: manager, tracer: options.tracer)
        let trip = Trip(name: "the trip", itemsLeft: list.viewState.itemsLeft)
        let banner = TripBanner(trip: trip) { print("  \($0)") }
        let screen = Screen(
            list: list, trip: TripPresenter(trip: trip, list: list), tracer: options.tracer)
        let stopping = onStop { try? await opened.saver.flush() }
        screen.draw()
        for await line in inputLines() {
            guard await screen.perform(line) else { break }
        }
        try? await opened.saver.flush()
        withExtendedLifetime((banner, stopping)) {}
    }
}
