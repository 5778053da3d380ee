import Foundation
import MVCListStore
import MVCModel
import MVCObservation
import MVCSQLiteStore
import MVCStore
import Testing

/// An edit written after another program changed the same row, before this process looked.
///
/// The row deleted, the same field changed, the file marked with a newer schema version: each is
/// a real second process (Python's `sqlite3` module), and each rule is the JSON document's.
@MainActor
@Suite("The SQLite store's edit of a row another program changed first")
struct SQLiteEditedMeanwhileTests {
    /// A store on a new database holding Louvre, written, whose notices are recorded.
    @MainActor
    private final class Fixture {
        let folder: TemporaryFolder
        let url: URL
        let store: AttractionStore
        let persistence: SQLitePersistence<Attraction>
        let louvre: Attraction
        private(set) var notices: [String] = []
        private var token: ObservationToken?

        init() async throws {
            (folder, url, store, persistence) = try await openWithLouvre()
            louvre = try #require(store.elements.first)
            token = store.notice.observe(options: .new) { [weak self] change in
                if let notice = change.newValue ?? nil { self?.notices.append(notice.message) }
            }
        }

        /// Runs `sql` in another program, with `LOUVRE` standing for Louvre's id.
        func otherProgram(_ sql: String) async throws {
            try await OtherSQLiteProgram.run(
                OtherSQLiteProgram.execute, url,
                sql.replacingOccurrences(of: "LOUVRE", with: "'\(louvre.id)'"))
        }

        /// Replaces Louvre here, then writes it.
        func editLouvre(name: String, notes: String) async throws {
            try store.replace(louvre.id, with: Attraction(id: louvre.id, name: name, notes: notes))
            try await persistence.flush()
        }
    }

    @Test(
        "an edit of a row another program deleted meanwhile writes the row again, whole, and says so"
    )
    func editOfDeletedRowKept() async throws {
        let it = try await Fixture()
        try it.store.add(Attraction(name: "Orsay"))
        try await it.persistence.flush()

        try await it.otherProgram("DELETE FROM elements WHERE id = LOUVRE")
        try await it.editLouvre(name: "Louvre", notes: "kept")
        // Every later edit of it is written too.
        try await it.editLouvre(name: "Le Louvre", notes: "kept")

        let onDisk = try ListOnDisk.read(it.url)
        #expect(onDisk.map(\.name) == ["Le Louvre", "Orsay"])
        #expect(onDisk.first?.notes == "kept")
        #expect(
            it.notices == ["“Louvre” was deleted in another process but edited here; it was kept"])
        try await it.persistence.close()
    }

    @Test(
        "a delete of a row another program edited meanwhile keeps the row, says so, and the next look shows it again"
    )
    func deleteOfEditedRowKept() async throws {
        let it = try await Fixture()

        try await it.otherProgram("UPDATE elements SET notes = 'theirs' WHERE id = LOUVRE")
        try it.store.delete(at: 0)
        try await it.persistence.flush()

        #expect(try ListOnDisk.read(it.url).map(\.notes) == ["theirs"])
        #expect(
            it.notices == ["“Louvre” was deleted here but edited in another process; it was kept"])
        it.persistence.lookForChanges()
        #expect(await eventually { it.store.elements.map(\.notes) == ["theirs"] })
        try await it.persistence.close()
    }

    @Test(
        "an edit of a field another program changed meanwhile keeps the other program's version, and says so"
    )
    func sameFieldKeepsTheirs() async throws {
        let it = try await Fixture()

        try await it.otherProgram("UPDATE elements SET notes = 'theirs' WHERE id = LOUVRE")
        try await it.editLouvre(name: "Le Louvre", notes: "ours")

        // The other field, which the other program left alone, is written.
        let onDisk = try ListOnDisk.read(it.url)
        #expect(onDisk.map(\.name) == ["Le Louvre"])
        #expect(onDisk.map(\.notes) == ["theirs"])
        #expect(it.notices.count == 1, "\(it.notices)")
        #expect(it.notices.first?.contains("“ours”") == true)
        #expect(it.notices.first?.contains("the other process's was kept") == true)
        // The next look brings the other program's version in.
        it.persistence.lookForChanges()
        #expect(await eventually { it.store.elements.map(\.notes) == ["theirs"] })
        #expect(it.store.elements.map(\.name) == ["Le Louvre"])
        try await it.persistence.close()
    }

    @Test("an edit of two fields that another program both changed meanwhile is told in one notice")
    func twoConflictsOneNotice() async throws {
        let it = try await Fixture()

        try await it.otherProgram(
            "UPDATE elements SET name = 'Their Louvre', notes = 'theirs' WHERE id = LOUVRE")
        try await it.editLouvre(name: "Our Louvre", notes: "ours")

        #expect(try ListOnDisk.read(it.url).map(\.name) == ["Their Louvre"])
        #expect(it.notices.count == 1, "\(it.notices)")
        #expect(it.notices.first?.contains("its name changed here to “Our Louvre”") == true)
        #expect(it.notices.first?.contains("its notes changed here to “ours”") == true)
        try await it.persistence.close()
    }

    @Test(
        "a database another program marks with a newer schema version while open is written no more, and the edit says it is not saved"
    )
    func newerVersionWhileOpen() async throws {
        let it = try await Fixture()

        try await it.otherProgram("PRAGMA user_version = 4")
        try it.store.add(Attraction(name: "Orsay"))
        await #expect(throws: PersistenceError.self) { try await it.persistence.flush() }
        await #expect(throws: PersistenceError.self) { try await it.persistence.close() }

        #expect(try ListOnDisk.read(it.url).map(\.name) == ["Louvre"])
        #expect(it.store.saving.value != .saved)
    }
}
