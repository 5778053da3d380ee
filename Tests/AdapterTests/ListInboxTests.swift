import Foundation
import MVCListStore
import MVCModel
import MVCSQLiteStore
import MVCStore
import Testing

/// An inbox of a test's own: what an adapter hands back through the port, recorded.
@MainActor
final class RecordingInbox: ListInbox {
    var elements: [Attraction]
    var rows: [(changed: [String], deleted: [Attraction.ID])] = []
    var notices: [String] = []

    init(_ elements: [Attraction]) {
        self.elements = elements
    }

    func takeIn(
        changed: [(element: Attraction, predecessors: [Attraction.ID])], deleted: [Attraction.ID]
    ) -> Bool {
        rows.append((changed.map(\.element.notes), deleted))
        return true
    }

    func takeIn(base: [Attraction]?, fileVersion: [Attraction], notices: [String]) async
        -> [Attraction]
    {
        elements = fileVersion
        return fileVersion
    }

    func postNotice(_ message: String) {
        notices.append(message)
    }
}

/// The port carries both directions: an adapter hands what another program committed to the
/// inbox it was connected to, and knows nothing else of the store.
@MainActor
@Suite("The persistence port, back to the store")
struct ListInboxTests {
    @Test("a database adapter hands another program's commit to the inbox it is connected to")
    func anotherProgramsCommitReachesTheInbox() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("inbox.sqlite")
        let louvre = Attraction(name: "Louvre")
        try await SQLiteListFile.write([louvre], to: url)
        let (store, persistence) = try await AttractionStore.openDatabase(
            at: url, pollInterval: nil)
        let inbox = RecordingInbox(store.elements)
        persistence.connect(to: inbox)

        try await OtherSQLiteProgram.run(
            OtherSQLiteProgram.execute, url,
            "UPDATE elements SET notes = 'by the river' WHERE id = '\(Attraction.storedText(of: louvre.id))'"
        )
        persistence.lookForChanges()

        #expect(await eventually { inbox.rows.count == 1 })
        #expect(inbox.rows.first?.changed == ["by the river"])
        // The store it replaced hears nothing: the adapter holds one inbox, not the store.
        #expect(store.elements.first?.notes == "")
        try await persistence.close()
    }

    @Test("an adapter holds its inbox weakly: an inbox let go is not kept alive by it")
    func inboxHeldWeakly() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("weak.sqlite")
        let (_, persistence) = try await AttractionStore.openDatabase(at: url, pollInterval: nil)
        weak var weakInbox: RecordingInbox?
        do {
            let inbox = RecordingInbox([])
            weakInbox = inbox
            persistence.connect(to: inbox)
        }
        #expect(weakInbox == nil)
        try await persistence.close()
    }
}
