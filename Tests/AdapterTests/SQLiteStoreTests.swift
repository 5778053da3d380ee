import CSQLite
import Foundation
import MVCDocumentStore
import MVCElements
import MVCListStore
import MVCModel
import MVCObservation
import MVCSQLiteStore
import MVCStore
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What only the SQLite database does.
///
/// Rows written one at a time, a schema with a version, the busy wait; what both formats do is in
/// `BothFormatsTests`.
@MainActor
@Suite("The SQLite store")
struct SQLiteStoreTests {
    private func ranks(_ url: URL) throws -> [String: String] {
        Dictionary(
            uniqueKeysWithValues: try RawSQLite(url).rows("SELECT id, rank FROM elements").map {
                ($0[0], $0[1])
            })
    }

    @Test("a move or an insert in a long list writes one row, the attraction's own")
    func constantRowsPerEdit() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("long.sqlite")
        try await SQLiteListFile.write((1...2_000).map { Attraction(name: "row \($0)") }, to: url)
        let (store, persistence) = try await AttractionStore.openDatabase(
            at: url, pollInterval: nil)
        let before = try ranks(url)

        try store.move(from: 1_500, to: 10)
        try store.add(Attraction(name: "new"), at: 300)
        try await persistence.flush()

        let after = try ranks(url)
        let changed = after.filter { before[$0.key] != $0.value }
        #expect(changed.count == 2, "rows written: \(changed.count)")
        try await persistence.close()
        let reopened = try await SQLiteListFile<Attraction>.read(from: url)
        #expect(reopened == store.elements)
        #expect(reopened[10].name == "row 1501" && reopened[300].name == "new")
    }

    @Test("inserting again and again between the same two rows renumbers them, keeping the order")
    func renumbering() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.sqlite")
        let (store, persistence) = try await AttractionStore.openDatabase(
            at: url, pollInterval: nil)
        try store.add(Attraction(name: "first"))
        try store.add(Attraction(name: "last"))
        // Each insert halves the gap at position 1: 2³² runs out after 32 of them.
        for number in 1...45 { try store.add(Attraction(name: "insert \(number)"), at: 1) }
        try await persistence.close()

        #expect(try await SQLiteListFile<Attraction>.read(from: url) == store.elements)
        #expect(store.elements.last?.name == "last" && store.elements[1].name == "insert 45")
    }

    @Test("a database of a newer schema version is refused, and left byte for byte")
    func newerSchema() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.sqlite")
        try await SQLiteListFile.write([Attraction(name: "Louvre")], to: url)
        try RawSQLite(url).execute("PRAGMA user_version = 7")
        let bytes = try Data(contentsOf: url)

        await #expect(throws: PersistenceError.newerVersion(path: url.path, found: 7, supported: 3))
        {
            _ = try await AttractionStore.openDatabase(at: url)
        }
        #expect(try Data(contentsOf: url) == bytes)
    }

    @Test(
        "another program's database, a list of other things, or one whose tables were changed by hand is refused untouched"
    )
    func otherDatabases() async throws {
        let folder = try TemporaryFolder()
        let people = folder.file("people.sqlite")
        try RawSQLite(people).execute(
            "CREATE TABLE people (name TEXT); INSERT INTO people VALUES ('Ada')")
        let contacts = folder.file("contacts.sqlite")
        try await SQLiteListFile.write([Attraction(name: "Louvre")], to: contacts)
        try RawSQLite(contacts).execute("UPDATE meta SET value = 'contacts' WHERE key = 'kind'")
        // Opened, these would fail at every edit's write instead.
        let altered = folder.file("altered.sqlite")
        try await SQLiteListFile.write([Attraction(name: "Louvre")], to: altered)
        try RawSQLite(altered).execute(
            "DROP TABLE elements; CREATE TABLE elements (id TEXT PRIMARY KEY, name TEXT)")
        let dropped = folder.file("dropped.sqlite")
        try await SQLiteListFile.write([Attraction(name: "Louvre")], to: dropped)
        try RawSQLite(dropped).execute("DROP TABLE elements")
        let unfillable = folder.file("unfillable.sqlite")
        try await SQLiteListFile.write([Attraction(name: "Louvre")], to: unfillable)
        // The table as the program makes it, from the described fields, and one column more.
        let columns =
            ["id TEXT PRIMARY KEY", "rank INTEGER"] + Attraction.fields.map(\.name) + ["row_change"]
        try RawSQLite(unfillable).execute(
            "ALTER TABLE elements RENAME TO old; CREATE TABLE elements (\(columns.joined(separator: ", ")), created TEXT NOT NULL); INSERT INTO elements SELECT *, 'today' FROM old; DROP TABLE old"
        )

        for (url, words) in [
            (people, "the tables people"), (contacts, "a list of contacts"),
            (altered, "its table elements has no column rank"),
            (dropped, "its table elements is missing"),
            (unfillable, "a column created that every row must fill"),
        ] {
            let bytes = try Data(contentsOf: url)
            await #expect {
                _ = try await AttractionStore.openDatabase(at: url)
            } throws: { error in
                guard case .corrupt(let path, let reason) = error as? PersistenceError else {
                    return false
                }
                return path == url.path && reason.contains(words)
            }
            #expect(try Data(contentsOf: url) == bytes)
        }
    }

    @Test(
        "a database made before a field was described, by schema version 1, gets its column, its rows the default, and version 3"
    )
    func newFieldColumn() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("old.sqlite")
        let louvre = Attraction(name: "Louvre")
        // As a version of the program whose attractions had no notes would have made it.
        try RawSQLite(url).execute(
            """
            CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
            CREATE TABLE elements (id TEXT PRIMARY KEY NOT NULL, rank INTEGER NOT NULL, name TEXT);
            CREATE TABLE changes (seq INTEGER PRIMARY KEY, element_id TEXT NOT NULL,
                origin TEXT NOT NULL);
            INSERT INTO meta VALUES ('kind', 'attractions');
            INSERT INTO elements VALUES ('\(louvre.id)', 0, 'Louvre');
            PRAGMA user_version = 1;
            """)

        let (store, persistence) = try await AttractionStore.openDatabase(
            at: url, pollInterval: nil)
        #expect(store.elements == [louvre])
        try store.replace(
            louvre.id, with: Attraction(id: louvre.id, name: "Louvre", notes: "Vermeer"))
        try await persistence.close()

        #expect(
            try RawSQLite(url).rows("SELECT name, notes FROM elements") == [["Louvre", "Vermeer"]])
        // Version 1's log of changes is gone with it.
        #expect(try RawSQLite(url).rows("PRAGMA user_version") == [["3"]])
        #expect(
            try RawSQLite(url).rows("SELECT name FROM sqlite_master WHERE name = 'changes'") == [])
    }

    @Test(
        "an edit waits out another program's lock, says it failed, and is saved once the lock is gone"
    )
    func busyDatabase() async throws {
        let locked = try await openLockedByAnother()

        try locked.store.add(Attraction(name: "Louvre"))
        #expect(
            await eventually {
                if case .failed = locked.persistence.saveStatus.value { true } else { false }
            })
        if case .failed(let error, _) = locked.persistence.saveStatus.value {
            #expect(error.description.contains("locked"), "\(error)")
        }
        try await locked.other.release()
        // A try begun while the lock was still held may yet fail (flush() would throw it: the
        // edit is in no file then); the edit stays queued, and a later try saves it.
        #expect(await eventually { locked.persistence.saveStatus.value == .saved })
        try await locked.persistence.flush()

        #expect(try RawSQLite(locked.url).rows("SELECT name FROM elements") == [["Louvre"]])
    }

    @Test("a database another program holds locked for writing opens, and shows its list")
    func opensWhileLocked() async throws {
        let locked = try await openLockedByAnother()
        try await locked.other.release()
        try locked.store.add(Attraction(name: "Louvre"))
        try await locked.persistence.close()
        let other = try await OtherSQLiteProgram.holdingWriteLock(on: locked.url)

        let (store, persistence) = try await AttractionStore.openDatabase(
            at: locked.url, busyWait: .milliseconds(50), pollInterval: nil)
        #expect(store.elements.map(\.name) == ["Louvre"])
        try await other.release()
        try await persistence.close()
    }

    @Test("closing waits out another program's lock longer than one edit's busy wait")
    func closingWaitsOutALock() async throws {
        let locked = try await openLockedByAnother()
        try locked.store.add(Attraction(name: "Louvre"))
        try locked.store.add(Attraction(name: "Orsay"))

        // A program that quits while another holds the lock: its edits are written once the
        // lock is gone, after the first write gave up.
        let closing = Task { try await locked.persistence.close() }
        #expect(
            await eventually {
                if case .failed = locked.store.saving.value { return true }
                return false
            })
        try await locked.other.release()
        try await closing.value
        #expect(
            try RawSQLite(locked.url).rows("SELECT name FROM elements ORDER BY rank") == [
                ["Louvre"], ["Orsay"],
            ])
    }

    @Test(
        "closing gives up on a lock held past its patience, says how many edits were not saved, and lets go"
    )
    func closingGivesUpOnALock() async throws {
        let locked = try await openLockedByAnother()
        try locked.store.add(Attraction(name: "Louvre"))

        await #expect {
            try await locked.persistence.close(patience: .milliseconds(300))
        } throws: { error in
            "\(error)".contains("locked for over 0.3 seconds while it closed; 1 edit was not saved")
        }
        try await locked.other.release()
        #expect(try RawSQLite(locked.url).rows("SELECT name FROM elements") == [])
        // Closed: a second close does nothing, and says nothing.
        try await locked.persistence.close()
    }

    @Test("a store and its persistence are freed once let go, and the database is closed")
    func freed() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.sqlite")
        weak var weakStore: AttractionStore?
        weak var weakPersistence: SQLitePersistence<Attraction>?
        do {
            let (store, persistence) = try await AttractionStore.openDatabase(at: url)
            weakStore = store
            weakPersistence = persistence
            try store.add(Attraction(name: "Louvre"))
            try await persistence.close()
        }
        #expect(await eventually { weakStore == nil && weakPersistence == nil })
        // The last connection folded the write-ahead log into the file.
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
    }

    @Test("two processes moving rows at the same moment end with the database's order, both")
    func concurrentMoves() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.sqlite")
        try await SQLiteListFile.write(["A", "B", "C", "D"].map { Attraction(name: $0) }, to: url)
        let first = try await AttractionStore.openDatabase(at: url)
        let second = try await OtherStoreProcess(url)

        for round in 0..<20 {
            // Both move before either has written its move.
            try first.store.move(from: round % 4, to: (round + 2) % 4)
            try await second.run("move \((round + 3) % 4) \(round % 4)")
            try await first.persistence.flush()
            try await second.run("flush")
        }

        var onDisk: [Attraction] = []
        var theirs: [Attraction] = []
        #expect(
            await eventually(seconds: 15) {
                onDisk = (try? ListOnDisk.read(url)) ?? []
                theirs = (try? await second.elements) ?? []
                return first.store.elements == onDisk && theirs == onDisk
            },
            "\(first.store.elements.map(\.name)) \(theirs.map(\.name)) \(onDisk.map(\.name))"
        )
        try await second.close()
        try await first.persistence.close()
    }

    @Test("a database restored in place from an older copy is shown whole, not ignored")
    func restoredInPlace() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.sqlite")
        let backup = folder.file("backup.sqlite")
        let (store, persistence) = try await AttractionStore.openDatabase(at: url)
        try store.add(Attraction(name: "Louvre"))
        try await persistence.flush()
        try await OtherSQLiteProgram.run(
            OtherSQLiteProgram.execute, url, "VACUUM INTO '\(backup.path)'")
        for name in ["Orsay", "Cluny", "Rodin"] { try store.add(Attraction(name: name)) }
        try await persistence.flush()

        // As `sqlite3 a.sqlite ".restore backup.sqlite"` does: the same file, older pages.
        try await OtherSQLiteProgram.run(
            OtherSQLiteProgram.execute, url,
            "ATTACH '\(backup.path)' AS old; DELETE FROM main.elements; INSERT INTO main.elements SELECT * FROM old.elements"
        )

        #expect(await eventually { store.elements.map(\.name) == ["Louvre"] })
    }

    @Test(
        "rows that share a rank (set by hand) are opened without a write, and keep the order shown through an insert and a move"
    )
    func sharedRanks() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.sqlite")
        try await SQLiteListFile.write(["A", "B", "C"].map { Attraction(name: $0) }, to: url)
        try RawSQLite(url).execute("UPDATE elements SET rank = 0")
        let (store, persistence) = try await AttractionStore.openDatabase(
            at: url, pollInterval: nil)
        let shown = store.elements
        // Opening wrote nothing: the ranks are renumbered by the first edit that needs room.
        #expect(try RawSQLite(url).rows("SELECT DISTINCT rank FROM elements") == [["0"]])

        try store.add(Attraction(name: "D"))
        try store.move(from: 3, to: 1)
        try await persistence.close()

        #expect(try await SQLiteListFile<Attraction>.read(from: url) == store.elements)
        #expect(store.elements.map(\.name) == [shown[0].name, "D", shown[1].name, shown[2].name])
    }

    @Test("a read-only database is read without being written to")
    func readOnlySource() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.sqlite")
        try await SQLiteListFile.write([Attraction(name: "Louvre")], to: url)
        #expect(chmod(url.path, 0o444) == 0)
        let bytes = try Data(contentsOf: url)

        #expect(try await SQLiteListFile<Attraction>.read(from: url).map(\.name) == ["Louvre"])
        #expect(try Data(contentsOf: url) == bytes)
    }
    @Test(
        "a save-status handler that edits the store when it hears pending has both edits saved, in order"
    )
    func handlerEditsWhileTold() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("h.sqlite")
        let (store, persistence) = try await openFollowingOnlyWhenAsked(url)
        var seen: [SaveStatus] = []
        let token = persistence.saveStatus.observe(options: .new) { change in
            guard let status = change.newValue else { return }
            seen.append(status)
            // The write of the first edit is already under way when this is told.
            if status == .pending, store.count == 1 { try? store.add(Attraction(name: "second")) }
        }
        try store.add(Attraction(name: "first"))
        try await persistence.flush()

        #expect(store.elements.map(\.name) == ["first", "second"])
        #expect(try ListOnDisk.read(url) == store.elements)
        #expect(seen.first == .pending)
        #expect(seen.last == .saved)
        #expect(
            !seen.dropLast().contains(.saved),
            "saved told before the second edit was written: \(seen)")
        withExtendedLifetime(token) {}
        try await persistence.close()
    }
}
