import Foundation
import MVCObservation
import PackingCore
import Testing

@MainActor
@Suite("The packing list")
struct PackingListTests {
    @Test("adding publishes the item and where it went, and undo takes it back")
    func addAndUndo() throws {
        let list = PackingList()
        var heard: [PackingChange] = []
        let token = list.changes.subscribeToAll { heard.append($0) }

        let socks = try list.add("Socks")
        #expect(list.undoLabel == "Add “Socks”")
        list.undo()

        #expect(heard == [.added(socks, at: 0), .removed(socks, at: 0)])
        #expect(list.items.isEmpty)
        _ = token
    }

    @Test("a version-1 file is migrated: every item counts one")
    func migration() async throws {
        let url = FileManager.default.temporaryDirectory.appending(path: "\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: url) }
        let id = UUID()
        let item = #"{"id":"\#(id)","name":"Hat","isPacked":true}"#
        let version1 = #"{"formatVersion":1,"document":["# + item + "]}"
        try Data(version1.utf8).write(to: url)

        let items = try await PackingFile.file(at: url).load()

        #expect(items == [Item(id: id, name: "Hat", isPacked: true, quantity: 1)])
    }
}
