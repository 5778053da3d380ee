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
    @Test("the change log prunes itself once every 1,024 changes, keeping the last 100,000")
    func changeLogPrunedEvery1024Changes() async throws {
        let (folder, url, _, persistence) = try await openWithFive()
        defer { withExtendedLifetime(folder) {} }
        try await persistence.close()
        // Another program's edits, the counter first set just below a multiple of 1,024: the log
        // keeps its old entries until the change that reaches it, then only the last 100,000.
        let counts = try await OtherSQLiteProgram.run(
            """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1], isolation_level=None)
            old = "SELECT count(*) FROM change_log WHERE counter <= 104800"
            db.execute("UPDATE change_counter SET last = 204798")
            db.execute("INSERT INTO change_log (counter, stamp) VALUES (104800, 1), (104801, 1)")
            db.execute("UPDATE elements SET notes = 'one' WHERE name = 'A'")
            print(db.execute(old).fetchone()[0])
            db.execute("UPDATE elements SET notes = 'two' WHERE name = 'A'")
            print(db.execute(old).fetchone()[0])
            print(db.execute("SELECT count(*) FROM change_log WHERE counter = 204800").fetchone()[0])
            print(db.execute("SELECT count(*) FROM change_log WHERE counter = 104801").fetchone()[0])
            """, url)
        // The five opening changes and 104,800 kept, then gone; 204,800 and 104,801 (the last
        // 100,000 changes) kept.
        #expect(counts.split(separator: "\n") == ["6", "0", "1", "1"])
    }

    @Test(
        "a file the build before made (its log pruned at each change) is given the pruning trigger at opening, and an open process keeps up"
    )
    func changeLogTriggerGivenToAnOlderFile() async throws {
        let (folder, url, store, persistence) = try await openWithFive()
        defer { withExtendedLifetime(folder) {} }
        // The triggers as the build before made them: the log pruned inside each change's.
        try await sql(
            url,
            """
            DROP TRIGGER change_log_pruned;
            DROP TRIGGER elements_updated;
            CREATE TRIGGER elements_updated AFTER UPDATE ON elements
                WHEN NEW.row_change IS OLD.row_change BEGIN
                UPDATE change_counter SET last = last + 1;
                INSERT OR REPLACE INTO change_log (counter, stamp)
                    SELECT last, random() FROM change_counter;
                DELETE FROM change_log WHERE (SELECT last % 1024 FROM change_counter) = 0
                    AND counter <= (SELECT last FROM change_counter) - 100000;
                UPDATE elements SET row_change = (SELECT last FROM change_counter)
                    WHERE rowid = NEW.rowid;
            END;
            UPDATE elements SET notes = 'by the build before' WHERE name = 'C';
            """)
        let counter = """
            import sqlite3, sys
            print(sqlite3.connect(sys.argv[1]).execute("SELECT last, pruned FROM change_counter").fetchone())
            """
        // Looked at as it is, the older triggers record every change, and nothing is told.
        #expect(try await caughtUp(store, persistence, url))
        #expect(store.elements[2].notes == "by the build before")
        #expect(store.notice.value == nil)
        let before = try await OtherSQLiteProgram.run(counter, url)
        let (_, other) = try await AttractionStore.openDatabase(at: url, pollInterval: nil)
        try await other.close()
        // Made again in one transaction, nothing went unrecorded: no new stretch of changes.
        #expect(try await OtherSQLiteProgram.run(counter, url) == before)

        let triggers = try await OtherSQLiteProgram.run(
            """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            for (sql,) in db.execute("SELECT sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name"):
                print("prunes" if "DELETE FROM change_log" in sql else "does not prune")
            """, url)
        // change_log_pruned, elements_deleted, elements_inserted, elements_updated.
        #expect(
            triggers.split(separator: "\n") == [
                "prunes", "does not prune", "does not prune", "does not prune",
            ])
        #expect(try await caughtUp(store, persistence, url))
        #expect(store.elements.map(\.name) == ["A", "B", "C", "D", "E"])
        #expect(store.elements[2].notes == "by the build before")
        try await persistence.close()
    }
    @Test(
        "an edit made while another program's rebuild of the table had dropped the triggers is seen, though the next opening retypes the table"
    )
    func editWhileRebuiltWithoutTriggers() async throws {
        let (folder, url, store, persistence) = try await openWithFive()
        defer { withExtendedLifetime(folder) {} }
        // Rebuilt with a column type of its own (dropping the table drops its triggers), and a
        // row edited before the triggers are back: that edit is recorded nowhere.
        try await sql(
            url,
            """
            BEGIN;
            CREATE TABLE rebuilt (id TEXT PRIMARY KEY NOT NULL, rank INTEGER NOT NULL,
                row_change INTEGER NOT NULL DEFAULT 0, name VARCHAR, notes TEXT);
            INSERT INTO rebuilt SELECT id, rank, row_change, name, notes FROM elements;
            DROP TABLE elements;
            ALTER TABLE rebuilt RENAME TO elements;
            UPDATE elements SET name = 'unrecorded' WHERE name = 'B';
            COMMIT;
            """)
        // Another program opens it: the table is retyped, its triggers made again with it, and
        // a new stretch of changes begun, which the open process reads whole.
        let (_, other) = try await AttractionStore.openDatabase(at: url, pollInterval: nil)
        try await other.close()

        #expect(try await caughtUp(store, persistence, url))
        #expect(store.elements.map(\.name) == ["A", "unrecorded", "C", "D", "E"])
        let type = try await OtherSQLiteProgram.run(
            """
            import sqlite3, sys
            print(sqlite3.connect(sys.argv[1]).execute(
                "SELECT type FROM pragma_table_info('elements') WHERE name = 'name'").fetchone()[0])
            """, url)
        #expect(type == "TEXT", "the table was retyped (the case this test is about)")
        try await persistence.close()
    }
}
