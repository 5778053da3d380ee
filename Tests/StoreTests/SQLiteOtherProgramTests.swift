import Foundation
import MVCModel
import MVCObservation
import MVCPersistence
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
        "a database another program deletes, replaces, empties or cuts short while it is open is told once, and the list goes whole to a new file beside it at the next edit",
        arguments: ["delete", "replace", "empty", "truncate"])
    func lostWhileOpen(how: String) async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("s.sqlite")
        try await SQLiteListFile.write([Attraction(name: "Louvre")], to: url)
        let (store, persistence) = try await AttractionStore.openDatabase(
            at: url, pollInterval: nil)
        var notices: [String] = []
        let token = store.notice.observe(options: .new) { change in
            if let notice = change.newValue ?? nil { notices.append(notice.message) }
        }
        // Committed to the log before the file goes, long enough to grow the list: the log at
        // the path holds this process's frames, its first page (the table of tables) among them,
        // and SQLite would read the pages a cut took away from the log, reporting no damage.
        try store.add(Attraction(name: "Orsay", notes: String(repeating: "x", count: 2_000)))
        try store.add(Attraction(name: "Orangerie", notes: String(repeating: "y", count: 2_000)))
        try await persistence.flush()
        _ = try await OtherSQLiteProgram.run(OtherSQLiteProgram.lose, url, how)
        // What is at the path: its inode, size and modification time (not its bytes: a `Data`
        // read here is reported leaked by LeakSanitizer, which cannot follow its storage).
        let left = Self.fileState(url)

        persistence.lookForChanges()
        #expect(await eventually { !notices.isEmpty })
        try store.add(Attraction(name: "Cluny"))
        try await persistence.flush()
        try await persistence.close()

        let recovered = folder.file("s.recovered.sqlite")
        #expect(notices.count == 1, "\(notices)")
        #expect(notices.first?.contains(url.path) == true)
        #expect(notices.first?.contains(recovered.path) == true)
        #expect(persistence.url == recovered)
        #expect(
            try ListOnDisk.read(recovered).map(\.name) == ["Louvre", "Orsay", "Orangerie", "Cluny"])
        // What the other program left at the path is its own: not written to, not taken away.
        #expect(Self.fileState(url) == left)
        if how == "replace" {
            // And the next program to open it finds it as it was: no frames of this process's
            // are left in the log at the path for SQLite to read as the new file's own.
            #expect(try await OtherSQLiteProgram.run(OtherSQLiteProgram.tables, url) == "notes")
        }
        withExtendedLifetime(token) {}
    }

    @Test(
        "a database another program deletes is found by the next write, with no look: told once, and the edit goes to the new file"
    )
    func lostFoundByWrite() async throws {
        let (folder, url, store, persistence) = try await openWithLouvre()
        _ = try await OtherSQLiteProgram.run(OtherSQLiteProgram.lose, url, "delete")

        try store.add(Attraction(name: "Orsay"))
        try? await persistence.flush()
        try await persistence.close()

        #expect(store.notice.value?.sequenceNumber == 1)
        #expect(
            try ListOnDisk.read(folder.file("s.recovered.sqlite")).map(\.name) == [
                "Louvre", "Orsay",
            ])
    }

    @Test(
        "a database another program set to auto_vacuum shrinks under this process's own deletes and checkpoints, and is never taken for one cut short"
    )
    func ownDeletesShrinkIt() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("s.sqlite")
        try await SQLiteListFile.write([Attraction(name: "Louvre")], to: url)
        _ = try await OtherSQLiteProgram.run(OtherSQLiteProgram.autoVacuum, url)
        let (store, persistence) = try await AttractionStore.openDatabase(
            at: url, pollInterval: nil)
        // Long enough for SQLite's own checkpoints (every 1,000 pages of log) to come inside
        // this process's commits, deletes among them, each cutting the file to fewer pages.
        for number in 1...300 {
            try store.add(
                Attraction(name: "Hall \(number)", notes: String(repeating: "x", count: 2_000)))
        }
        try await persistence.flush()
        while store.elements.count > 1 { _ = try store.delete(at: 1) }
        try await persistence.flush()
        persistence.lookForChanges()
        try await persistence.flush()

        #expect(store.notice.value == nil, "\(String(describing: store.notice.value))")
        #expect(persistence.url == url)
        try await persistence.close()
        #expect(try ListOnDisk.read(url).map(\.name) == ["Louvre"])
    }

    private static func fileState(_ url: URL) -> [String]? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else {
            return nil
        }
        let keys: [FileAttributeKey] = [.systemFileNumber, .size, .modificationDate]
        return keys.map {
            "\(attributes[$0].map { "\($0)" } ?? "-")"
        }
    }

    @Test(
        "a database deleted while a look waits on another program's lock, then closed, still gets its list written beside it"
    )
    func lostWhileALookWaits() async throws {
        let (folder, url, store, persistence) = try await openWithLouvre()
        // Another program holds the log index's locks, as one recovering the log does: the look
        // waits on them; the file is deleted meanwhile, and the program quits.
        let holder = try await OtherSQLiteProgram.holdingIndexLocks(of: url)
        persistence.lookForChanges()
        // Watched, and the file deleted, from a thread of its own the moment the look waits:
        // SQLite gives the look up after about 10 s, and the main actor, shared by the suite's
        // other tests, may not get a turn that soon under a sanitizer. (`unlink` opens nothing,
        // so it drops none of this process's locks.)
        let path = url.path
        #expect(
            await eventuallyOnAThread(
                persistence.isReadingOtherProcessesChanges, then: { unlink(path) }))
        let closing = Task { try await persistence.close() }
        try await holder.release()
        try await closing.value

        #expect(try ListOnDisk.read(folder.file("s.recovered.sqlite")).map(\.name) == ["Louvre"])
        withExtendedLifetime(store) {}
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

    @Test("a recovery file never replaces one already there: the next free name is taken")
    func recoveryNameTaken() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("s.sqlite")
        try Data("mine".utf8).write(to: folder.file("s.recovered.sqlite"))

        #expect(
            SQLitePersistence<Attraction>.recoveryURL(for: url)
                == folder.file("s.recovered-2.sqlite"))
        let kept = try [UInt8](Data(contentsOf: folder.file("s.recovered.sqlite")))
        #expect(kept == Array("mine".utf8))
    }
}
