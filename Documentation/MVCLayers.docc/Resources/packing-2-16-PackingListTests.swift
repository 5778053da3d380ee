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

    @Test("a file saved before quantities existed loads, each item counting 1, and saves")
    func fileWithoutQuantity() async throws {
        let url = FileManager.default.temporaryDirectory.appending(path: "\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: url) }
        let row = #"{"id": "\#(UUID())", "name": "Hat", "isPacked": true}"#
        try Data(#"{"formatVersion": 1, "document": [\#(row)]}"#.utf8).write(to: url)

        let (store, saver) = try await ListStore<Item>.open(at: url)
        #expect(store.elements.map(\.quantity) == [1])
        #expect(store.elements.map(\.isPacked) == [true])

        try store.add(Item(name: "Socks"))
        try await saver.flush()
        let (reopened, _) = try await ListStore<Item>.open(at: url)
        #expect(reopened.elements.map(\.name) == ["Hat", "Socks"])
    }
}
