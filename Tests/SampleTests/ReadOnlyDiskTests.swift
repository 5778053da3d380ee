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
        arguments: ["sqlite", "json"])
    func readOnlyDisk(format: String) async throws {
        let sample = try SampleRunner.executable(named: "attractions")
        let script = """
            set -e
            folder=$(mktemp -d)
            mount -t tmpfs none "$folder"
            printf 'add Louvre\\nquit\\n' | "$0" --store "$folder/a.$1" >/dev/null
            mount -o remount,ro "$folder"
            printf 'list\\nadd Orsay\\nquit\\n' | "$0" --store "$folder/a.$1" 2>&1 || true
            echo "read-only: $(ls "$folder")"
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["unshare", "-m", "sh", "-c", script, sample.path, format]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(
            decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        try await SampleRunner.deadline(for: process).wait()

        #expect(text.contains("1. Louvre"), "\(text)")
        #expect(text.contains("2. Orsay"), "\(text)")
        #expect(
            text.contains("read-only file system") || text.contains("Read-only file system"),
            "\(text)")
        #expect(!text.contains("unable to open"), "\(text)")
    }
}
