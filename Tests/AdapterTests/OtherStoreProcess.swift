import Foundation
import MVCModel

/// Another program with the same list open: the `other-process` executable in `--edit` mode, a
/// real second process, driven one command at a time (see Tests/OtherProcess/ListEditor.swift).
@MainActor
final class OtherStoreProcess {
    private let process: Process
    private let input: FileHandle
    private let output: FileHandle

    /// Starts the other program on the list at `url`; returns once it has opened it.
    ///
    /// - Parameters:
    ///   - saveDelay: How long a JSON document waits after an edit before it saves.
    ///   - watch: How often it looks for other processes' saves; `nil`, never.
    init(
        _ url: URL, saveDelay: Duration = .milliseconds(20),
        watch: Duration? = .milliseconds(100)
    ) async throws {
        process = Process()
        process.executableURL = try executable(named: "other-process")
        let milliseconds = { (duration: Duration) in
            "\(duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000)"
        }
        process.arguments = [
            "--edit", url.isFileURL ? url.path : url.absoluteString, milliseconds(saveDelay),
            watch.map(milliseconds) ?? "0",
        ]
        let inputPipe = Pipe()
        let outputPipe = Pipe()
        process.standardInput = inputPipe
        process.standardOutput = outputPipe
        try process.run()
        input = inputPipe.fileHandleForWriting
        output = outputPipe.fileHandleForReading
        let first = await nextLine()
        guard first == "open" else {
            throw OtherProgramFailure(description: "the other process said \(first ?? "nothing")")
        }
    }

    isolated deinit {
        if process.isRunning { process.terminate() }
    }

    /// Runs one command in the other process (`add 0 Louvre`, `move 2 0`, `flush`, …); what it
    /// answered.
    @discardableResult
    func run(_ command: String) async throws -> String {
        try input.write(contentsOf: Data((command + "\n").utf8))
        let answer = await nextLine()
        guard let answer, !answer.hasPrefix("error") else {
            throw OtherProgramFailure(
                description: "the other process answered \(answer ?? "nothing") to \(command)")
        }
        return answer
    }

    /// The next line the other process prints (`nil` once it has exited), read on a thread of
    /// its own: the read blocks.
    private func nextLine() async -> String? {
        let handle = output
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var bytes: [UInt8] = []
                while let byte = handle.readData(ofLength: 1).first, byte != UInt8(ascii: "\n") {
                    bytes.append(byte)
                }
                continuation.resume(
                    returning: bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self))
            }
        }
    }

    /// Adds an attraction named `name` at `position` in the other process; its id.
    func add(_ name: String, at position: Int) async throws -> Attraction.ID {
        let answer = try await run("add \(position) \(name)")
        guard let id = Attraction.ID(String(answer.dropFirst(3))) else {
            throw OtherProgramFailure(description: "no id in the answer \(answer)")
        }
        return id
    }

    /// The list as the other process has it now.
    var elements: [Attraction] {
        get async throws {
            try JSONDecoder().decode([Attraction].self, from: Data(try await run("list").utf8))
        }
    }

    /// Writes every edit, lets go of the file, and waits for the process to end.
    func close() async throws {
        try await run("close")
        let process = process
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                process.waitUntilExit()
                continuation.resume()
            }
        }
    }
}
