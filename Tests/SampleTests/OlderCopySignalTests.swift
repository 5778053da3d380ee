import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An older copy put back over the attractions sample's file, then a signal before its next save.
@Suite("An older copy put back, then a signal", .samplesTakeTurns)
struct OlderCopySignalTests {
    @Test(
        "SIGTERM right after an older copy is put back still leaves every saved row in the file",
        arguments: [SIGTERM, SIGINT])
    func signalAfterCopy(signal: Int32) async throws {
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "older-copy-signal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appending(path: "a.json")
        let sample = try LiveSample("attractions", ["--store", store.path])
        let holds = { (name: String) in
            (try? String(contentsOf: store, encoding: .utf8))?.contains("\"\(name)\"") == true
        }
        sample.send("add Louvre")
        #expect(await eventually { holds("Louvre") })
        let copy = try Data(contentsOf: store)
        sample.send("add Orsay")
        #expect(await eventually { holds("Orsay") })

        try copy.write(to: store, options: .atomic)
        sample.signal(signal)
        _ = try await sample.finish(closingInput: false)

        #expect(sample.endedBySignal)
        #expect(holds("Louvre") && holds("Orsay"), "the copy put back lacks a saved row")
    }
}
