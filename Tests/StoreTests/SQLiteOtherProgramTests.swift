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
            "\(error)".contains("database is locked")
        }
        #expect(ContinuousClock.now - start >= .milliseconds(300))

        // Let go meanwhile, the writer's work is done and the tables are made.
        let opening = Task { try await AttractionStore.openDatabase(at: url, pollInterval: nil) }
        try await other.release()
        let (store, persistence) = try await opening.value
        try store.add(Attraction(name: "Louvre"))
        try await persistence.flush()

        #expect(store.saving.value == .saved)
        try await persistence.close()
        #expect(try ListOnDisk.read(url).map(\.name) == ["Louvre"])
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
        _ = try OtherSQLiteProgram.run(OtherSQLiteProgram.names, url)

        try store.add(Attraction(name: "Orsay"))
        try await persistence.flush()
        let seen = try OtherSQLiteProgram.run(OtherSQLiteProgram.names, url)
        _ = try OtherSQLiteProgram.run(OtherSQLiteProgram.insert, url, "Cluny")
        try await second.close()
        try await persistence.close()

        #expect(seen == "Louvre,Orsay")
        #expect(try OtherSQLiteProgram.run(OtherSQLiteProgram.names, url) == "Louvre,Orsay,Cluny")
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
        _ = try OtherSQLiteProgram.run(OtherSQLiteProgram.lose, url, how)
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
            #expect(try OtherSQLiteProgram.run(OtherSQLiteProgram.tables, url) == "notes")
        }
        withExtendedLifetime(token) {}
    }

    @Test(
        "a database another program deletes is found by the next write, with no look: told once, and the edit goes to the new file"
    )
    func lostFoundByWrite() async throws {
        let (folder, url, store, persistence) = try await openWithLouvre()
        _ = try OtherSQLiteProgram.run(OtherSQLiteProgram.lose, url, "delete")

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
        _ = try OtherSQLiteProgram.run(OtherSQLiteProgram.autoVacuum, url)
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
        #expect(await eventually { persistence.isReadingOtherProcessesChanges })
        try OtherSQLiteProgram.run(OtherSQLiteProgram.lose, url, "delete")
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

        let names = try OtherSQLiteProgram.run(OtherSQLiteProgram.names, url)
        #expect(names == "Louvre,Orsay,Cluny" || names == "Louvre,Cluny,Orsay", "\(names)")
        #expect(try OtherSQLiteProgram.run(OtherSQLiteProgram.integrity, url) == "ok")
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

/// Another program on the database, run as a child process with Python's `sqlite3` module.
final class OtherSQLiteProgram: Sendable {
    private let process: Process
    private let output: Pipe
    private let input: Pipe

    private init(process: Process, output: Pipe, input: Pipe) {
        self.process = process
        self.output = output
        self.input = input
    }

    /// Starts a program that takes the write lock of the database at `url` (an exclusive
    /// transaction), says so, and holds it until ``release()``.
    ///
    /// - Returns: Once the other program holds the lock.
    static func holdingWriteLock(on url: URL) async throws -> OtherSQLiteProgram {
        try await holding("BEGIN EXCLUSIVE", on: url)
    }

    /// Starts a program that begins a write transaction on the database at `url`, runs `sql` in
    /// it, and holds it (and the write lock) until ``release()`` commits it.
    ///
    /// - Returns: Once the other program holds the lock.
    static func holdingWriteLock(on url: URL, writing sql: String) async throws
        -> OtherSQLiteProgram
    {
        try await holding("BEGIN IMMEDIATE;" + sql, on: url)
    }

    /// Starts a program that holds the locks of the log's index of the database at `url` (bytes
    /// 120 to 127 of its `-shm` file, as SQLite recovering the log holds them) until
    /// ``release()``.
    ///
    /// - Returns: Once the other program holds them.
    static func holdingIndexLocks(of url: URL) async throws -> OtherSQLiteProgram {
        let script = """
            import fcntl, os, sys
            index = os.open(sys.argv[1] + "-shm", os.O_RDWR)
            fcntl.lockf(index, fcntl.LOCK_EX | fcntl.LOCK_NB, 8, 120, 0)
            print("locked", flush=True)
            sys.stdin.readline()
            print("released", flush=True)
            """
        return try await startHolding(script, arguments: [url.path])
    }

    /// Starts a program that makes a database at `url` with no tables (a table made and dropped,
    /// in SQLite's default rollback mode) and begins a write to it, holding the lock that lets
    /// others read but not write, until ``release()``.
    ///
    /// - Returns: Once the other program holds the lock.
    static func writingNewFile(at url: URL) async throws -> OtherSQLiteProgram {
        try await holding("CREATE TABLE t (x); DROP TABLE t; BEGIN IMMEDIATE", on: url)
    }

    /// Starts a program that runs `begin` on the database at `url`, says so, waits for
    /// ``release()`` (or for this process to end), then commits and exits.
    private static func holding(_ begin: String, on url: URL) async throws -> OtherSQLiteProgram {
        let script = """
            import sqlite3, sys
            connection = sqlite3.connect(sys.argv[1], isolation_level=None)
            for statement in sys.argv[2].split(";"):
                connection.execute(statement).fetchall()
            print("locked", flush=True)
            sys.stdin.readline()
            connection.execute("COMMIT")
            print("released", flush=True)
            """
        return try await startHolding(script, arguments: [url.path, begin])
    }

    /// Starts `script`, and returns once it says "locked".
    private static func startHolding(_ script: String, arguments: [String]) async throws
        -> OtherSQLiteProgram
    {
        let program = try start(script, arguments: arguments)
        let first = await program.nextLine()
        guard first == "locked" else {
            throw OtherProgramFailure(description: "the other program said \(first ?? "nothing")")
        }
        return program
    }

    /// Prints the names in the list, in order, comma-separated.
    static let names = """
        import sqlite3, sys
        connection = sqlite3.connect(sys.argv[1])
        rows = connection.execute("SELECT name FROM elements ORDER BY rank").fetchall()
        print(",".join(row[0] for row in rows))
        """

    /// Prints what SQLite's `PRAGMA integrity_check` says of the file ("ok" if nothing is wrong).
    static let integrity = """
        import sqlite3, sys
        print(sqlite3.connect(sys.argv[1]).execute("PRAGMA integrity_check").fetchone()[0])
        """

    /// Runs the SQL in `sys.argv[2]`, as someone at the `sqlite3` prompt would.
    static let execute = """
        import sqlite3, sys
        sqlite3.connect(sys.argv[1], isolation_level=None).executescript(sys.argv[2])
        """

    /// Inserts an attraction named `sys.argv[2]` at the end, in plain SQL.
    static let insert = """
        import sqlite3, sys, uuid
        connection = sqlite3.connect(sys.argv[1], isolation_level=None)
        connection.execute("BEGIN IMMEDIATE")
        key = str(uuid.uuid4()).upper()
        connection.execute(
            "INSERT INTO elements (id, rank, name, notes) VALUES (?, (SELECT max(rank) FROM elements) + 4294967296, ?, '')",
            (key, sys.argv[2]))
        connection.execute("COMMIT")
        """

    /// Turns `auto_vacuum` on, so that a delete gives the file's free pages back at its commit.
    static let autoVacuum = """
        import sqlite3, sys
        connection = sqlite3.connect(sys.argv[1], isolation_level=None)
        connection.execute("PRAGMA auto_vacuum = FULL")
        connection.execute("VACUUM")
        assert connection.execute("PRAGMA auto_vacuum").fetchone() == (1,)
        """

    /// The names of the database's tables, one a line, and `PRAGMA integrity_check` must be ok.
    static let tables = """
        import sqlite3, sys
        connection = sqlite3.connect(sys.argv[1])
        assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
            print(name)
        """

    /// Deletes the file (`delete`), puts another database in its place (`replace`), empties it
    /// in place (`empty`), or cuts it short to its first page (`truncate`).
    static let lose = """
        import os, sqlite3, sys
        path, how = sys.argv[1], sys.argv[2]
        if how == "delete":
            os.remove(path)
        elif how == "replace":
            other = path + ".new"
            connection = sqlite3.connect(other)
            connection.execute("CREATE TABLE notes (text TEXT)")
            connection.commit()
            connection.close()
            os.replace(other, path)
        elif how == "truncate":
            # The first page kept: SQLite's header, which still counts the pages cut off.
            os.truncate(path, 4096)
        else:
            open(path, "w").close()
        """

    /// Runs `script` with the database's path and `arguments`, to its end; what it printed.
    @discardableResult
    static func run(_ script: String, _ url: URL, _ arguments: String...) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, url.path] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw OtherProgramFailure(
                description: "the other program exited with \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func start(_ script: String, arguments: [String]) throws -> OtherSQLiteProgram {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        return OtherSQLiteProgram(process: process, output: output, input: input)
    }

    /// Tells a holding program to let go, and returns once it has and has exited.
    func release() async throws {
        // Its input closed (not written to, which would raise SIGPIPE here were it gone).
        try input.fileHandleForWriting.close()
        try await finished()
    }

    /// The next line the program prints, read on a thread of its own (the read blocks).
    private func nextLine() async -> String? {
        let handle = output.fileHandleForReading
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var bytes: [UInt8] = []
                while true {
                    let byte = handle.readData(ofLength: 1)
                    guard let first = byte.first, first != UInt8(ascii: "\n") else { break }
                    bytes.append(first)
                }
                continuation.resume(
                    returning: bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self))
            }
        }
    }

    /// Returns once the program has let go of the lock and exited; throws if it failed.
    private func finished() async throws {
        let line = await nextLine()
        let process = self.process
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                process.waitUntilExit()
                continuation.resume()
            }
        }
        guard line == "released", process.terminationStatus == 0 else {
            throw OtherProgramFailure(
                description:
                    "the other program exited with \(process.terminationStatus) after saying \(line ?? "nothing")"
            )
        }
    }
}

struct OtherProgramFailure: Error, CustomStringConvertible {
    var description: String
}
