import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A sample running in the background, fed commands one at a time, as a user at a keyboard would,
/// while the test watches its output, signals it, or starts another one beside it.
final class LiveSample {
    private let process = Process()
    private let input = Pipe()
    private let folder: URL
    private let outputFile: URL
    private let errorFile: URL

    init(_ name: String, _ arguments: [String]) throws {
        folder = FileManager.default.temporaryDirectory.appending(
            path: "live-sample-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        outputFile = folder.appending(path: "stdout")
        errorFile = folder.appending(path: "stderr")
        try Data().write(to: outputFile)
        try Data().write(to: errorFile)
        process.executableURL = try SampleRunner.executable(named: name)
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: folder)
    }

    /// Whether the sample is still running (a command typed to one that ended would raise
    /// SIGPIPE in the test process).
    var isRunning: Bool { process.isRunning }

    /// Types one command.
    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// What the sample printed so far.
    var output: String {
        (try? FileHandle(forReadingFrom: outputFile)).flatMap { handle in
            defer { try? handle.close() }
            return (try? handle.readToEnd()).map { String(decoding: $0, as: UTF8.self) }
        } ?? ""
    }

    /// Waits until the output holds `text`, for at most `seconds`.
    ///
    /// - Returns: How long it took, or `nil` if the text never came.
    @discardableResult
    func waitForOutput(containing text: String, seconds: Double = 30) async -> Duration? {
        let clock = ContinuousClock()
        let start = clock.now
        while clock.now - start < .seconds(seconds) {
            if output.contains(text) { return clock.now - start }
            try? await Task.sleep(for: .milliseconds(5))
        }
        // Looked at once more: a test held up past the deadline (a loaded machine) still sees
        // what arrived meanwhile.
        return output.contains(text) ? clock.now - start : nil
    }

    /// Sends `signal` to the sample.
    func signal(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Closes standard input (the end of a script), unless told not to (to let a signal end the
    /// sample), and waits for the sample to end.
    func finish(closingInput: Bool = true) async throws -> SampleRun {
        if closingInput { try? input.fileHandleForWriting.close() }
        try await SampleRunner.deadline(for: process).wait()
        let errors = try FileHandle(forReadingFrom: errorFile)
        defer { try? errors.close() }
        return SampleRun(
            output: output,
            errors: String(decoding: try errors.readToEnd() ?? Data(), as: UTF8.self),
            status: process.terminationStatus)
    }

    /// Whether the process ended by a signal (as opposed to exiting).
    var endedBySignal: Bool { process.terminationReason == .uncaughtSignal }
}

/// Whether `condition` holds within `seconds`, asked every 10 ms: for a state a sample reaches
/// in its own time, without a fixed wait.
func eventually(seconds: Int = 30, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return true
}
