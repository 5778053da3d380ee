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
        let list = PackingListPresenter(
            store: opened.store, manager: PackingManager(service: SimulatedWeights([:])))
        print(list.viewState.text)
    }
}
