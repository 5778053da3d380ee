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
    @Test(
        "with its input ended and its last output unread, a signal still ends it, and a reader that goes away ends it by SIGPIPE",
        arguments: [SIGTERM, SIGINT, SIGHUP, SIGPIPE])
    func lastOutputUnread(ending: Int32) async throws {
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "last-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appending(path: "attractions.json")
        let (process, input, readEnd) = try SampleRunner.startWithOutputOfItsOwn(
            "attractions", ["--store", store.path])
        let deadline = SampleRunner.deadline(for: process, seconds: 60)
        // Its screens fill the pipe long before the end of its input; everything is saved,
        // and then it waits for a reader that never comes.
        let adds = (1...300).map { "add A\($0)\n" }.joined()
        input.fileHandleForWriting.write(Data(adds.utf8))
        try input.fileHandleForWriting.close()
        #expect(
            await eventually {
                (try? String(contentsOf: store, encoding: .utf8))?.contains("\"A300\"") == true
            })

        if ending == SIGPIPE { close(readEnd) } else { kill(process.processIdentifier, ending) }
        var ended: Result<Void, any Error> = .success(())
        do { try await deadline.wait() } catch { ended = .failure(error) }
        if ending != SIGPIPE { close(readEnd) }

        try ended.get()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == ending)
    }
}
