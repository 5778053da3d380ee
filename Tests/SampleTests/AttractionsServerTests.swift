import Foundation
import Testing

/// The server the PostgreSQL cases use, if any (`MVCLAYERS_POSTGRES`).
private let postgresServer = ProcessInfo.processInfo.environment["MVCLAYERS_POSTGRES"].flatMap {
    $0.isEmpty ? nil : $0
}

/// The attractions sample on a PostgreSQL server, as two people on two machines would use it.
///
/// Two samples connected over TCP to one server; runs where `MVCLAYERS_POSTGRES` names one.
@Suite(
    "The attractions sample on a PostgreSQL server", .samplesTakeTurns,
    .enabled(
        if: postgresServer != nil,
        "no server: Scripts/postgres-server.sh start, then export MVCLAYERS_POSTGRES=$(Scripts/postgres-server.sh url)"
    ))
struct AttractionsServerTests {
    /// A new table on the server: no two runs share one.
    private let store =
        "\(postgresServer ?? "")#s_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(30))"

    /// Types `list` until the screen shows `text` (a scripted sample prints its screen after
    /// each command).
    private func waitForScreen(_ sample: LiveSample, showing text: String) async -> Bool {
        for _ in 0..<100 {
            guard sample.isRunning else { return false }
            sample.send("list")
            if await sample.waitForOutput(containing: text, seconds: 0.3) != nil { return true }
        }
        return false
    }

    @Test("two samples on one server each see the other's edits, and the table keeps both")
    func twoSamplesShareOneList() async throws {
        let first = try LiveSample("attractions", ["--store", store])
        let second = try LiveSample("attractions", ["--store", store])

        first.send("add Louvre")
        #expect(await waitForScreen(second, showing: "1. Louvre"))
        second.send("add Orsay")
        #expect(await waitForScreen(first, showing: "2. Orsay"))
        first.send("quit")
        second.send("quit")
        let firstRun = try await first.finish()
        let secondRun = try await second.finish()
        #expect(firstRun.status == 0, "the first sample: \(firstRun.errors)")
        #expect(secondRun.status == 0, "the second sample: \(secondRun.errors)")

        let again = try await SampleRunner.run("attractions", ["--store", store], script: "list\n")
        #expect(again.output.contains("1. Louvre\n  2. Orsay"))
    }

    @Test("--convert copies a JSON list into a table and back, and a wrong password says so")
    func convertAndRefuse() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "attractions-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = folder.appending(path: "a.json").path
        let back = folder.appending(path: "b.json").path
        _ = try await SampleRunner.run(
            "attractions", ["--store", json], script: "add Louvre\nadd Orsay\n")

        let into = try await SampleRunner.run("attractions", ["--store", json, "--convert", store])
        let out = try await SampleRunner.run("attractions", ["--store", store, "--convert", back])
        let copied = try await SampleRunner.run("attractions", ["--store", back], script: "list\n")

        #expect(into.output.contains("Copied 2 attractions into postgres://"))
        #expect(out.status == 0)
        #expect(copied.output.contains("1. Louvre\n  2. Orsay"))

        let wrong = store.replacingOccurrences(of: ":mvclayers@", with: ":wrong-secret@")
        let refused = try await SampleRunner.run(
            "attractions", ["--store", wrong], script: "list\n")
        #expect(refused.status == 1)
        #expect(refused.errors.contains("password authentication failed"))
        #expect(!refused.errors.contains("wrong-secret"))
    }
}
