import Foundation
import MVCListStore
import MVCModel
import MVCObservation
import MVCSQLiteStore
import MVCStore
import Testing

/// What another program can do to an open database's rows and change tracking, each found by a
/// hostile run and played here with a real second process (Python's `sqlite3` module).
@MainActor
@Suite("The SQLite store when another program tampers with its change tracking")
struct SQLiteTamperingTests {
    /// A store following only when asked, on a new database holding A to E.
    private func openWithFive() async throws -> (
        folder: TemporaryFolder, url: URL, store: AttractionStore,
        persistence: SQLitePersistence<Attraction>
    ) {
        let folder = try TemporaryFolder()
        let url = folder.file("t.sqlite")
        let (store, persistence) = try await openFollowingOnlyWhenAsked(url)
        for name in ["A", "B", "C", "D", "E"] { try store.add(Attraction(name: name)) }
        try await persistence.flush()
        return (folder, url, store, persistence)
    }

    private func sql(_ url: URL, _ statements: String) async throws {
        let said = try await OtherSQLiteProgram.run(
            """
            import sqlite3, sys
            try:
                sqlite3.connect(sys.argv[1], isolation_level=None).executescript(sys.argv[2])
            except Exception as error:
                print(error)
            """, url, statements)
        #expect(said.isEmpty, "the other program said: \(said)")
    }

    /// Looks, and waits until the store shows what the file holds.
    private func caughtUp(
        _ store: AttractionStore, _ persistence: SQLitePersistence<Attraction>, _ url: URL
    )
        async throws -> Bool
    {
        let onDisk = try ListOnDisk.read(url)
        persistence.lookForChanges()
        return await eventually(seconds: 10) { store.elements == onDisk }
    }

    @Test("after a copy restored in place took the counter back, every later commit is taken in")
    func restoredCopyThenCommits() async throws {
        let (folder, url, store, persistence) = try await openWithFive()
        let backup = folder.file("backup.sqlite")
        try await OtherSQLiteProgram.run(
            """
            import sqlite3, sys
            sqlite3.connect(sys.argv[1]).backup(sqlite3.connect(sys.argv[2]))
            """, url, backup.path)
        for notes in ["v0", "v1", "v2"] {
            try await sql(url, "UPDATE elements SET notes = '\(notes)' WHERE name = 'A'")
        }
        #expect(try await caughtUp(store, persistence, url))

        try await OtherSQLiteProgram.run(
            """
            import sqlite3, sys
            sqlite3.connect(sys.argv[2]).backup(sqlite3.connect(sys.argv[1]))
            """, url, backup.path)
        #expect(try await caughtUp(store, persistence, url))
        // Four commits: the third brings the counter back to where it was before the restore.
        for (old, new) in [("B", "B1"), ("C", "C1"), ("D", "D1"), ("E", "E1")] {
            try await sql(url, "UPDATE elements SET name = '\(new)' WHERE name = '\(old)'")
        }
        #expect(try await caughtUp(store, persistence, url))
        #expect(store.elements.map(\.name) == ["A", "B1", "C1", "D1", "E1"])
        try await persistence.close()
    }

    @Test(
        "moving a row another program made unreadable writes this process's version, never deletes it"
    )
    func moveOfUnreadableRow() async throws {
        let (folder, url, store, persistence) = try await openWithFive()
        defer { withExtendedLifetime(folder) {} }
        let notices = Notices(store)
        try await sql(url, "UPDATE elements SET notes = 'bell' || char(7) WHERE name = 'B'")
        persistence.lookForChanges()
        #expect(await eventually { notices.messages.contains { $0.contains("skipped a row") } })

        try store.move(from: 1, to: 3)
        try await persistence.flush()

        #expect(try ListOnDisk.read(url).map(\.name) == ["A", "C", "D", "B", "E"])
        #expect(try ListOnDisk.read(url) == store.elements)
        try await persistence.close()
    }

    @Test("a trigger another program dropped is told while open, and put back at the next opening")
    func droppedTrigger() async throws {
        let (folder, url, store, persistence) = try await openWithFive()
        let notices = Notices(store)
        try await sql(url, "DROP TRIGGER elements_inserted")
        persistence.lookForChanges()
        #expect(
            await eventually { notices.messages.contains { $0.contains("removed the triggers") } })
        try await persistence.close()

        let (reopened, again) = try await openFollowingOnlyWhenAsked(url)
        try await OtherSQLiteProgram.run(OtherSQLiteProgram.insert, url, "F")
        again.lookForChanges()
        #expect(await eventually { reopened.elements.last?.name == "F" })
        try await again.close()
        withExtendedLifetime(folder) {}
    }

    @Test("a counter row another program deleted is made again by the next write, which is saved")
    func deletedCounter() async throws {
        let (folder, url, store, persistence) = try await openWithFive()
        defer { withExtendedLifetime(folder) {} }
        try await sql(url, "DELETE FROM change_counter")

        try store.add(Attraction(name: "F"))
        try await persistence.flush()

        #expect(try ListOnDisk.read(url).map(\.name) == ["A", "B", "C", "D", "E", "F"])
        #expect(store.saving.value == .saved)
        try await persistence.close()
    }

    @Test(
        "a copy restored in place and at once edited past the change last seen here is read whole")
    func restoredThenEditedPast() async throws {
        let (folder, url, store, persistence) = try await openWithFive()
        let backup = folder.file("backup.sqlite")
        try await OtherSQLiteProgram.run(
            """
            import sqlite3, sys
            sqlite3.connect(sys.argv[1]).backup(sqlite3.connect(sys.argv[2]))
            """, url, backup.path)
        try store.replace(
            store.elements[0].id, with: Attraction(id: store.elements[0].id, name: "A1"))
        try await persistence.flush()

        // Restored, then edited three times in one go, before any look here: the counter is
        // past where it was, but its history is another.
        try await OtherSQLiteProgram.run(
            """
            import sqlite3, sys
            sqlite3.connect(sys.argv[2]).backup(sqlite3.connect(sys.argv[1]))
            db = sqlite3.connect(sys.argv[1], isolation_level=None)
            for name in ["B", "C", "D"]:
                db.execute("UPDATE elements SET notes = 'py' WHERE name = ?", (name,))
            """, url, backup.path)

        #expect(try await caughtUp(store, persistence, url))
        #expect(store.elements.map(\.name) == ["A", "B", "C", "D", "E"])
        try await persistence.close()
    }

    @Test("a process open while another put dropped triggers back reads the whole list once")
    func trackingPutBackWhileOpen() async throws {
        let (folder, url, store, persistence) = try await openWithFive()
        defer { withExtendedLifetime(folder) {} }
        try await sql(url, "DROP TRIGGER elements_updated")
        try await sql(url, "UPDATE elements SET notes = 'unrecorded' WHERE name = 'B'")
        // Another program opens the database, which puts the trigger back.
        let (_, other) = try await AttractionStore.openDatabase(at: url, pollInterval: nil)
        try await other.close()

        #expect(try await caughtUp(store, persistence, url))
        #expect(store.elements[1].notes == "unrecorded")
        try await persistence.close()
    }
}
