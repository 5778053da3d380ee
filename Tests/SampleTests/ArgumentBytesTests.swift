import Foundation
import Testing

/// A name is taken as the bytes given, or refused: never read as another name.
@Suite("Arguments that are not UTF-8", .samplesTakeTurns)
struct ArgumentBytesTests {
    @Test(
        "a --store whose bytes are not UTF-8 is refused, naming them, and no file is made",
        arguments: ["json", "sqlite"])
    func storeNotUTF8(format: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "argument-bytes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sample = try SampleRunner.executable(named: "attractions")
        // A shell passes the byte 0xFF as it is; Foundation's `Process` takes only strings.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c", "exec \"$0\" --store \"$(printf 'list-\\377.\(format)')\" </dev/null",
            sample.path,
        ]
        process.currentDirectoryURL = folder
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        let message = String(
            decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        try await SampleRunner.deadline(for: process).wait()

        #expect(process.terminationStatus == 64)
        #expect(message.contains("(list-\\xff.\(format)) is not valid UTF-8"), "\(message)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }
}
