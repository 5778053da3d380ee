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
        // Longer than the store's 5 s busy timeout.
        let other = try await OtherSQLiteProgram.holdingWriteLock(on: url, seconds: 6)

        let (store, persistence) = try await AttractionStore.openDatabase(
            at: url, pollInterval: nil)
        try await other.finished()
        try store.add(Attraction(name: "Orsay"))
        try await persistence.flush()

        #expect(store.saving.value == .saved)
        try await persistence.close()
        #expect(try ListOnDisk.read(url).map(\.name) == ["Louvre", "Orsay"])
    }
}

/// Another program on the database, run as a child process with Python's `sqlite3` module.
final class OtherSQLiteProgram: Sendable {
    private let process: Process
    private let output: Pipe

    private init(process: Process, output: Pipe) {
        self.process = process
        self.output = output
    }

    /// Starts a program that takes the write lock of the database at `url` (an exclusive
    /// transaction), says so, holds it for `seconds`, then commits and exits.
    ///
    /// - Returns: Once the other program holds the lock.
    static func holdingWriteLock(on url: URL, seconds: Double) async throws -> OtherSQLiteProgram {
        let script = """
            import sqlite3, sys, time
            connection = sqlite3.connect(sys.argv[1], isolation_level=None)
            connection.execute("BEGIN EXCLUSIVE")
            print("locked", flush=True)
            time.sleep(float(sys.argv[2]))
            connection.execute("COMMIT")
            print("released", flush=True)
            """
        let program = try start(script, arguments: [url.path, String(seconds)])
        let first = await program.nextLine()
        guard first == "locked" else {
            throw OtherProgramFailure(description: "the other program said \(first ?? "nothing")")
        }
        return program
    }

    private static func start(_ script: String, arguments: [String]) throws -> OtherSQLiteProgram {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        return OtherSQLiteProgram(process: process, output: output)
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
    func finished() async throws {
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
