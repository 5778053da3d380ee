import Foundation
import MVCDocumentStore
import MVCListStore
import PackingCore

@main
struct PackingList {
    @MainActor
    static func main() async throws {
        let (store, saver) = try await ListStore<Item>.open(at: URL(fileURLWithPath: "trip.json"))
        let service = SimulatedWeights(["socks": 120, "hat": 80])
        let manager = PackingManager(service: service)
        let list = PackingListPresenter(store: store, manager: manager)
        while let line = readLine() {
            do {
                if line.hasPrefix("add ") { try store.add(Item(name: String(line.dropFirst(4)))) }
                if line == "undo" { try store.undo() }
                if line.hasPrefix("weigh "), let row = Int(line.dropFirst(6)), row > 0 {
                    let name = try store.element(at: row - 1).name
                    await manager.lookUp(name)
                    print("  service lookups so far: \(await service.lookups)")
                }
                try await saver.flush()
            } catch {
                print("  ! \(error)")
            }
            print("Packing list (\(list.viewState.itemsLeft) left)")
            for (number, item) in zip(1..., list.viewState.rows) {
                let quantity = item.quantity > 1 ? " ×\(item.quantity)" : ""
                let weight = item.grams.map { " (\($0) g)" } ?? ""
                let box = item.isPacked ? "[x]" : "[ ]"
                print("  \(number). \(box) \(item.name)\(quantity)\(weight)")
            }
            if let label = list.viewState.undoLabel { print("  [Undo \(label)]") }
            if let error = list.viewState.error { print("  ! \(error)") }
        }
    }
}
