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
            print("Packing list")
            for (index, item) in store.elements.enumerated() {
                let weight = manager.grams(of: item.name).map { " (\($0) g)" } ?? ""
                print("  \(index + 1). [\(item.isPacked ? "x" : " ")] \(item.name)\(weight)")
            }
            if let label = store.undoLabel { print("  [Undo \(label)]") }
        }
    }
}
