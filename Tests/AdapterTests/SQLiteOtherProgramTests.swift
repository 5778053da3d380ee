import Foundation
import MVCDocumentStore
import MVCListStore
import MVCModel
import MVCObservation
import MVCSQLiteStore
import MVCStore
import Testing

/// The SQLite store beside another program: a real second process (Python's `sqlite3` module,
/// which links the system's SQLite), never a second store in this process.
@MainActor
@Suite("The SQLite store beside another program")
struct SQLiteOtherProgramTests {
    @Test(
        "a program that opens while another holds the write lock past the busy timeout saves once it is let go"
    )
    func openingBesideALongWriteLock() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("s.sqlite")
        try await SQLiteListFile.write([Attraction(name: "Louvre")], to: url)
        let other = try await OtherSQLiteProgram.holdingWriteLock(on: url)

        // Opening takes no write lock: it ends while the other program still holds it.
        let (store, persistence) = try await AttractionStore.openDatabase(
            at: url, busyWait: .milliseconds(100), pollInterval: nil)
        #expect(store.elements.map(\.name) == ["Louvre"])
        // An edit meanwhile waits out its busy time, fails, and stays queued.
        try store.add(Attraction(name: "Orsay"))
        #expect(
            await eventually {
                if case .failed = store.saving.value { return true }
                return false
            })
        try await other.release()
        // A try begun while the lock was still held may yet fail; a later one saves the edit.
        #expect(await eventually { store.saving.value == .saved })
        try await persistence.flush()
        try await persistence.close()
        #expect(try ListOnDisk.read(url).map(\.name) == ["Louvre", "Orsay"])
    }

    @Test(
        "a new database opened while another program begins writing it waits for the writer, then makes its tables"
    )
    func openingANewFileBesideAWriter() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("s.sqlite")
        // Turning WAL on (a file not yet in WAL mode) reads the file, then takes the write lock;
        // while another program holds that lock, SQLite fails the second step at once, without
        // waiting (its documented deadlock rule). Several programs opening one new file at once
        // meet the same.
        let other = try await OtherSQLiteProgram.writingNewFile(at: url)
        // It waits for the writer, as long as an edit would: past that, it says why.
        let start = ContinuousClock.now
        await #expect {
            _ = try await AttractionStore.openDatabase(
                at: url, busyWait: .milliseconds(300), pollInterval: nil)
        } throws: { error in
            "\(error)".contains("kept a transaction open on it for longer than 0.3 seconds")
        }
        #expect(ContinuousClock.now - start >= .milliseconds(300))

        // Let go meanwhile, the writer's work is done and the tables are made.
        // Its busy wait only a guard against a hang: under a sanitizer the writer takes a while.
        let opening = Task {
            try await AttractionStore.openDatabase(
                at: url, busyWait: .seconds(60), pollInterval: nil)
        }
        try await other.release()
        let (store, persistence) = try await opening.value
        try store.add(Attraction(name: "Louvre"))
        try await persistence.flush()

        #expect(store.saving.value == .saved)
        try await persistence.close()
        #expect(try ListOnDisk.read(url).map(\.name) == ["Louvre"])
    }

    @Test(
        "a database in rollback-journal mode that another program keeps a transaction open on is refused at opening, saying why, and opens once it lets go"
    )
    func rollbackModeBesideATransaction() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.sqlite")
        try await SQLiteListFile.write([Attraction(name: "Louvre")], to: url)
        try RawSQLite(url).execute("PRAGMA journal_mode = DELETE")
        // Turning WAL on needs no other program in a transaction, a reader's included.
        let other = try await OtherSQLiteProgram.holdingWriteLock(on: url, writing: "SELECT 1")

        await #expect {
            _ = try await AttractionStore.openDatabase(at: url, busyWait: .milliseconds(200))
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("cannot save ") && text.contains("rollback-journal mode")
                && text.contains("kept a transaction open on it for longer than 0.2 seconds")
        }
        try await other.release()
        let (store, persistence) = try await AttractionStore.openDatabase(at: url)
        #expect(store.elements.map(\.name) == ["Louvre"])
        try await persistence.close()
    }

    @Test(
        "a store open while this process opens a second store and reads the file keeps SQLite's locks: another program sees its save, and keeps its own commit"
    )
    func secondOpeningInThisProcess() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("s.sqlite")
        try await SQLiteListFile.write([Attraction(name: "Louvre")], to: url)
        let (store, persistence) = try await AttractionStore.openDatabase(
            at: url, pollInterval: nil)
        // The same process opens the file twice more: a second store, and a read of the list.
        let (_, second) = try await AttractionStore.openDatabase(at: url, pollInterval: nil)
        _ = try await SQLiteListFile<Attraction>.read(from: url)
        // Another program reads and exits: were this process's locks dropped, it would take
        // itself for the last user and fold the log away.
        _ = try await OtherSQLiteProgram.run(OtherSQLiteProgram.names, url)

        try store.add(Attraction(name: "Orsay"))
        try await persistence.flush()
        let seen = try await OtherSQLiteProgram.run(OtherSQLiteProgram.names, url)
        _ = try await OtherSQLiteProgram.run(OtherSQLiteProgram.insert, url, "Cluny")
        try await second.close()
        try await persistence.close()

        #expect(seen == "Louvre,Orsay")
        #expect(
            try await OtherSQLiteProgram.run(OtherSQLiteProgram.names, url) == "Louvre,Orsay,Cluny")
        #expect(try RawSQLite(url).rows("PRAGMA integrity_check") == [["ok"]])
    }

    @Test(
        "another program's commit made while this one closes is kept, and so is every edit this one had queued"
    )
    func commitWhileClosing() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("s.sqlite")
        let (store, persistence) = try await AttractionStore.openDatabase(at: url)
        try store.add(Attraction(name: "Louvre"))
        try await persistence.flush()
        let other = try await OtherSQLiteProgram.holdingWriteLock(
            on: url,
            writing:
                "INSERT INTO elements (id, rank, name, notes) VALUES ('\(UUID())', 1, 'Cluny', '')")

        // Queued behind the other program's lock, then closing: whenever the other program
        // commits, before closing waits for it or while it does, both sides' rows are kept.
        try store.add(Attraction(name: "Orsay"))
        let closing = Task { try await persistence.close() }
        try await other.release()
        try await closing.value

        let names = try await OtherSQLiteProgram.run(OtherSQLiteProgram.names, url)
        #expect(names == "Louvre,Orsay,Cluny" || names == "Louvre,Cluny,Orsay", "\(names)")
        #expect(try await OtherSQLiteProgram.run(OtherSQLiteProgram.integrity, url) == "ok")
    }
}
