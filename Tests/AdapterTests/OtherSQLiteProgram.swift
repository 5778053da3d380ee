import Foundation

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

    /// Starts a program that makes a database at `url` with no tables (a table made and dropped,
    /// in SQLite's default rollback mode) and begins a write to it, holding the lock that lets
    /// others read but not write, until ``release()``.
    ///
    /// - Returns: Once the other program holds the lock.
    static func writingNewFile(at url: URL) async throws -> OtherSQLiteProgram {
        try await holding("CREATE TABLE t (x); DROP TABLE t; BEGIN IMMEDIATE", on: url)
    }

    /// Starts a program that holds a JSON document's lock (an `flock` on its lock file at
    /// `lockPath`) until ``release()``, and writes `text` to `file` before it lets go: a program
    /// that saves the document while this process waits for the lock.
    ///
    /// It lets go `seconds` after it took the lock, on its own clock: a test whose own tasks
    /// wait behind a loaded machine's other work cannot keep it holding past a save's patience.
    ///
    /// - Returns: Once the other program holds the lock.
    static func holdingDocumentLock(
        _ lockPath: String, for seconds: Double, thenWriting text: String, to file: URL
    ) async throws -> OtherSQLiteProgram {
        let script = """
            import fcntl, sys, time
            lock = open(sys.argv[1], "a")
            fcntl.flock(lock, fcntl.LOCK_EX)
            print("locked", flush=True)
            time.sleep(float(sys.argv[4]))
            with open(sys.argv[2], "w") as file:
                file.write(sys.argv[3])
            print("released", flush=True)
            """
        return try await startHolding(script, arguments: [lockPath, file.path, text, "\(seconds)"])
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

    /// Runs `script` with the database's path and `arguments`, to its end; what it printed.
    @discardableResult
    static func run(_ script: String, _ url: URL, _ arguments: String...) async throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, url.path] + arguments
        let output = try ChildOutput()
        process.standardOutput = output.handle
        try process.run()
        // Blocks the calling actor while the child runs (tens of milliseconds): the suite's
        // timings were tuned with it so, and letting other tests run meanwhile loaded CI's
        // sanitizer runs past their waits. (`exited(_:)` waits without blocking.)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw OtherProgramFailure(
                description: "the other program exited with \(process.terminationStatus)")
        }
        return try output.text().trimmingCharacters(in: .whitespacesAndNewlines)
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
