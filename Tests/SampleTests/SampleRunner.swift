import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a sample printed and how it exited.
struct SampleRun {
    var output: String
    var errors: String
    var status: Int32

    /// Standard output split into lines, without the final empty one.
    var outputLines: [String] {
        output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
    /// Standard error split into lines, without the final empty one.
    var errorLines: [String] {
        errors.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
}

/// Runs a sample executable as a user would: arguments, a script on standard input.
enum SampleRunner {
    enum Failure: Error, CustomStringConvertible {
        case executableNotFound(String, searched: [String])
        case hung(String, seconds: Int)

        var description: String {
            switch self {
            case .executableNotFound(let name, let searched):
                "cannot find the '\(name)' executable; looked in \(searched.joined(separator: ", "))"
            case .hung(let name, let seconds):
                "'\(name)' was still running after \(seconds) s, so it was killed"
            }
        }
    }

    /// How long a sample may take to end once it has been told to; far more than any needs, even
    /// under a sanitizer on a loaded machine.
    static let exitLimit = 120
    /// Starts the sample `name` with `arguments`, its standard error discarded and its standard
    /// output a pipe whose read end only this process holds (Foundation's `Pipe` keeps a copy
    /// of the read end, which would keep the pipe from ever closing when a test closes it).
    ///
    /// - Returns: The process, the pipe to its input, and the output's read end, to close.
    static func startWithOutputOfItsOwn(_ name: String, _ arguments: [String]) throws -> (
        process: Process, input: Pipe, output: Int32
    ) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw CocoaError(.fileWriteUnknown) }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        let process = Process()
        let input = Pipe()
        process.executableURL = try executable(named: name)
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = FileHandle(fileDescriptor: ends[1], closeOnDealloc: false)
        process.standardError = FileHandle.nullDevice
        defer { close(ends[1]) }
        try process.run()
        return (process, input, ends[0])
    }

    /// A deadline `seconds` from now for `process` to end by.
    ///
    /// ``ProcessDeadline/wait()`` waits for the process to end, and kills it and fails if it has
    /// not by then: a hung sample fails its test instead of hanging the whole suite.
    static func deadline(for process: Process, seconds: Int = exitLimit) -> ProcessDeadline {
        ProcessDeadline(process, seconds: seconds)
    }

    /// Runs `name` with `arguments`, feeding it `script` as standard input (not a terminal), in
    /// the current folder `folder` if one is given.
    static func run(
        _ name: String, _ arguments: [String] = [], script: String = "", in folder: URL? = nil,
        environment: [String: String] = [:]
    ) async throws -> SampleRun {
        let workingFolder = folder
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "sample-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appending(path: "stdin")
        let output = folder.appending(path: "stdout")
        let errors = folder.appending(path: "stderr")
        try Data(script.utf8).write(to: input)
        try Data().write(to: output)
        try Data().write(to: errors)

        let process = Process()
        process.executableURL = try executable(named: name)
        process.arguments = arguments
        if let workingFolder { process.currentDirectoryURL = workingFolder }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardInput = try FileHandle(forReadingFrom: input)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        try await deadline(for: process).wait()

        return SampleRun(
            output: try text(of: output),
            errors: try text(of: errors),
            status: process.terminationStatus
        )
    }

    /// A file's text. (Read through a file handle: `Data(contentsOf:)` leaks its buffer for an
    /// empty file on Linux, which LeakSanitizer reports.)
    static func text(of file: URL) throws -> String {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        return String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
    }

    /// The built executable: it sits in the build folder beside the test binary.
    static func executable(named name: String) throws -> URL {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        var searched: [String] = []
        for _ in 0..<5 {
            let candidate = folder.appending(path: name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            searched.append(folder.path)
            folder.deleteLastPathComponent()
        }
        throw Failure.executableNotFound(name, searched: searched)
    }
}

/// A limit on how long a child process may still run; see ``SampleRunner/deadline(for:seconds:)``.
///
/// It polls `isRunning` rather than calling `waitUntilExit()`, which spins the calling thread's
/// run loop and, in swift-corelibs-foundation under load, has been seen to wait on after the
/// process was gone: whatever goes wrong, the wait ends. It sleeps between polls with
/// `Task.sleep`, never `usleep`: the tests share one process and a cooperative pool as wide as the
/// machine (two threads here), and a test that blocked a pool thread while a sample ran starved
/// every other test's async work for as long.
struct ProcessDeadline {
    private let process: Process
    private let end: ContinuousClock.Instant
    private let seconds: Int

    fileprivate init(_ process: Process, seconds: Int) {
        self.process = process
        self.seconds = seconds
        end = .now + .seconds(seconds)
    }

    /// Waits for the process to end, killing it once the deadline has passed.
    ///
    /// - Throws: ``SampleRunner/Failure/hung(_:seconds:)`` if it was still running then.
    func wait() async throws {
        while process.isRunning, ContinuousClock.now < end { await pause() }
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        let grace = ContinuousClock.now + .seconds(10)
        while process.isRunning, ContinuousClock.now < grace { await pause() }
        throw SampleRunner.Failure.hung(
            process.executableURL?.lastPathComponent ?? "the process", seconds: seconds)
    }

    /// A short sleep between polls that leaves the thread to other tasks, and is not cut short by
    /// cancellation (the deadline, not the task, decides when waiting ends).
    private func pause() async {
        // Not `Task.sleep`, which a cancelled task's call ends at once: the loop would spin.
        await withCheckedContinuation { continuation in
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(2)) {
                continuation.resume()
            }
        }
    }
}
