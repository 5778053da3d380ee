import Foundation
import MVCListStore
import PackingCore
import Testing

@MainActor
@Suite("The packing list's store")
struct PackingListTests {
    @Test("adding an item publishes it with its position, and undo takes it back")
    func addAndUndo() throws {
        let store = ListStore<Item>()
        var heard: [String] = []
        let token = store.changes.subscribeToAll { heard.append($0.change.summary) }

        try store.add(Item(name: "Socks"))
        try store.undo()

        #expect(heard == ["“Socks” inserted at 0", "“Socks” removed from 0"])
        #expect(store.elements.isEmpty)
        withExtendedLifetime(token) {}
    }

    @Test("an item without a name is refused, and nothing changes")
    func emptyNameRefused() {
        let store = ListStore<Item>()

        #expect(throws: ListStoreError<Item>.brokenRule(.emptyName)) {
            try store.add(Item(name: ""))
        }
        #expect(store.elements.isEmpty && store.undoLabel == nil)
    }
}
