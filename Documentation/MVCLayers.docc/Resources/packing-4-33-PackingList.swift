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
        var editor: ItemEditor?
        while let line = readLine() {
            let words = line.split(separator: " ", maxSplits: 1).map(String.init)
            let row = Int(words.last ?? "") ?? 0
            if let open = editor {  // an open editor takes each line: a field and its text, or save
                if line == "save" {
                    open.saveTapped()
                } else {
                    open.fieldChanged(words.first ?? "", to: words.dropFirst().first ?? "")
                }
                editor = open.viewState.isOpen ? open : nil
            } else if line.hasPrefix("edit ") {
                editor = list.editTapped(row: row)
            } else if line.hasPrefix("add ") {
                list.addTapped(name: String(line.dropFirst(4)))
            } else if line.hasPrefix("pack ") {
                list.packTapped(row: row)
            } else if line.hasPrefix("weigh ") {
                await list.weighTapped(row: row)
            } else if line == "undo" {
                list.undoTapped()
            }
            if let open = editor {  // while it is open, the screen is the editor
                print("Editing an item (a field's name and its text, then save)")
                for field in open.viewState.fields {
                    let problem = field.problem.map { "  ! \($0)" } ?? ""
                    print("  \(field.name): \(field.text)\(problem)")
                }
                if let error = open.viewState.error { print("  ! \(error)") }
                continue
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
            do { try await saver.flush() } catch { print("  ! \(error)") }
        }
    }
}
