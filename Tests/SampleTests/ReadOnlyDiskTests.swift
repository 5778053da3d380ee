import Foundation
import Testing

/// A list on a file system mounted read-only: shown as it is, in either format.
///
/// An edit is told it cannot be saved. Run as a user would: the sample in a process of its own,
/// in a mount namespace of its own (`unshare -m`), where a small file system is mounted, filled,
/// then made read-only; nothing of it is seen outside that process.
@Suite("A list on a read-only disk", .samplesTakeTurns)
struct ReadOnlyDiskTests {
    /// Whether this machine lets a process mount a file system of its own (root, with `unshare`).
    static let canMount: Bool = {
        guard geteuid() == 0 else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["unshare", "-m", "sh", "-c", "mount -t tmpfs none /mnt"]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    @Test(
        "a list on a read-only file system is shown, and an edit is told it is not saved",
        .enabled(if: canMount, "needs root and unshare, to mount a file system of its own"),
        arguments: ["sqlite", "json", "rollback-journal.sqlite"])
    func readOnlyDisk(format: String) async throws {
        // `rollback-journal.sqlite`: a database another program put back in SQLite's default
        // journal mode, which opening would turn to WAL (a write) on a writable disk.
        let text = try await Self.run(
            """
            printf 'add Louvre\\nquit\\n' | "$0" --store "$folder/a.$1" >/dev/null
            case "$1" in *.sqlite) python3 -c 'import sqlite3, sys
            sqlite3.connect(sys.argv[1]).execute("PRAGMA journal_mode = DELETE")' "$folder/a.$1";;
            esac
            mount -o remount,ro "$folder"
            printf 'list\\nadd Orsay\\nquit\\n' | "$0" --store "$folder/a.$1" 2>&1 || true
            """, format)

        #expect(text.contains("1. Louvre"), "\(text)")
        #expect(text.contains("2. Orsay"), "\(text)")
        #expect(
            text.contains("read-only file system") || text.contains("Read-only file system"),
            "\(text)")
        #expect(!text.contains("unable to open"), "\(text)")
    }

    @Test(
        "a database whose log holds a commit, on a read-only file system without its -shm file, is refused rather than shown without that commit",
        .enabled(if: canMount, "needs root and unshare, to mount a file system of its own"))
    func logWithoutIndex() async throws {
        // Another program commits into the log and ends without folding it into the file (as a
        // killed one would); then the log's index is gone, and the disk is made read-only.
        let text = try await Self.run(
            """
            printf 'add Louvre\\nquit\\n' | "$0" --store "$folder/a.sqlite" >/dev/null
            python3 - "$folder/a.sqlite" <<'PY'
            import os, sqlite3, sys, uuid
            connection = sqlite3.connect(sys.argv[1], isolation_level=None)
            connection.execute("PRAGMA wal_autocheckpoint = 0")
            connection.execute(
                "INSERT INTO elements (id, rank, name, notes) SELECT ?, max(rank) + 4294967296, 'Orsay', '' FROM elements",
                (str(uuid.uuid4()).upper(),))
            os._exit(0)
            PY
            rm "$folder/a.sqlite-shm"
            mount -o remount,ro "$folder"
            printf 'list\\nquit\\n' | "$0" --store "$folder/a.sqlite" 2>&1 || echo "exit status $?"
            """)

        #expect(!text.contains("1. Louvre") || text.contains("2. Orsay"), "\(text)")
        #expect(text.contains("a.sqlite-wal"), "\(text)")
    }

    /// Runs `script` with the attractions sample as `$0`, `arguments` after it, and `$folder` a
    /// small file system mounted for it alone; what it printed.
    private static func run(_ script: String, _ arguments: String...) async throws -> String {
        let sample = try SampleRunner.executable(named: "attractions")
        let whole = """
            set -e
            folder=$(mktemp -d)
            trap 'umount "$folder" 2>/dev/null; rmdir "$folder"' EXIT
            mount -t tmpfs none "$folder"
            \(script)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["unshare", "-m", "sh", "-c", whole, sample.path] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(
            decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        try await SampleRunner.deadline(for: process).wait()
        return text
    }
}
