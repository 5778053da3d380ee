import Foundation
import MVCDocumentStore
import MVCListStore
import PackingCore

@main
struct PackingList {
    @MainActor
    static func main() async throws {
        let (store, saver) = try await ListStore<Item>.open(at: URL(fileURLWithPath: "trip.json"))
        while let line = readLine() {
            do {
                if line.hasPrefix("add ") { try store.add(Item(name: String(line.dropFirst(4)))) }
                if line == "undo" { try store.undo() }
                try await saver.flush()
            } catch {
                print("  ! \(error)")
            }
            print("Packing list")
            for (index, item) in store.elements.enumerated() {
                print("  \(index + 1). [\(item.isPacked ? "x" : " ")] \(item.name)")
            }
            if let label = store.undoLabel { print("  [Undo \(label)]") }
        }
    }
}
