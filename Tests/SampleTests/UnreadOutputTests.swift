import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A sample whose output nobody reads: a pipe that fills and stays full.
@Suite("The attractions sample with its output unread", .samplesTakeTurns)
struct UnreadOutputTests {
    @Test(
        "with its output unread, it still saves, and a signal still ends it",
        arguments: ["json", "sqlite"])
    func unreadOutput(format: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "unread-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appending(path: "attractions.\(format)")
        let process = Process()
        process.executableURL = try SampleRunner.executable(named: "attractions")
        process.arguments = ["--store", store.path]
        let input = Pipe()
        let output = Pipe()  // never read: full after a few hundred screens
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let adds = (1...2_000).map { "add A\($0)\n" }.joined()
        input.fileHandleForWriting.write(Data(adds.utf8))

        // Saved while its screens wait in the full pipe: the output holds up no save.
        // (A database exists from the start: its log holds the first edit.)
        let written = format == "json" ? store.path : store.path + "-wal"
        #expect(
            await eventually {
                let size = try? FileManager.default.attributesOfItem(atPath: written)[.size]
                return (size as? Int ?? 0) > 0
            })
        kill(process.processIdentifier, SIGTERM)
        #expect(await eventually { !process.isRunning }, "the signal did not end it")

        #expect(process.terminationReason == .uncaughtSignal)
        withExtendedLifetime(output) {}
    }
}
