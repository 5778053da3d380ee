import Foundation
import MVCPersistence
import MVCStore
import MVCTracing
import PackingCore

/// The packing list on the terminal: reads one command per line, draws the screen after each.
@main
struct PackingList {
    static let help = """
        usage: PackingList [--file PATH] [--trace]
        commands: add NAME, new, edit ROW, pack ROW, weigh ROW, undo, redo, trip NAME, list, quit
        in the editor: a field's name and its text (name Socks, quantity 2), save, cancel
        """

    @MainActor
    static func main() async {
        var arguments = CommandLine.arguments.dropFirst()
        var path = "packing.json"
        var tracer = HopTracer.disabled
        while let argument = arguments.popFirst() {
            switch argument {
            case "--file" where !arguments.isEmpty: path = arguments.removeFirst()
            case "--trace": tracer = HopTracer { print("  trace: \($0)") }
            case "-h", "--help":
                print(help)
                return
            default:
                print("error: unknown option \(argument)\n\(help)")
                exit(64)
            }
        }
        let opened: (store: ListStore<Item>, saver: CoalescingSaver<[Item]>)
        do {
            opened = try await ListStore<Item>.open(at: URL(fileURLWithPath: path), tracer: tracer)
        } catch {
            print("error: \(error)")
            exit(1)
        }
        let manager = PackingManager(service: SimulatedWeights(["socks": 120, "hat": 80]))
        let list = PackingListPresenter(store: opened.store, manager: manager)
        let trip = Trip(name: "the trip", itemsLeft: list.viewState.itemsLeft)
        let banner = TripBanner(trip: trip) { print("  \($0)") }
        let screen = Screen(list: list, trip: trip, tracer: tracer)
        screen.draw()
        try? await opened.saver.flush()
        withExtendedLifetime(banner) {}
    }
}
