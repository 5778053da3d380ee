import AttractionsStorage
import Foundation
import MVCDocumentStore
import MVCModel
import MVCSQLiteStore
import MVCStore
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Saving survives a crash")
struct CrashTests {
    @Test("a writer killed with SIGKILL at random moments always leaves a whole saved state behind")
    func killedWriter() async throws {
        let folder = try TemporaryFolder()
        let file = DocumentFile(url: folder.file("attractions.json"), format: .attractions)
        try await file.overwrite(with: [Attraction(name: "state 0")])
        var random = SeededGenerator(seed: 0xC4A5_4000)
        var highestState = 0

        for round in 1...25 {
            let writer = Process()
            writer.executableURL = try executable(named: "other-process")
            writer.arguments = [file.path, String(highestState + 1)]
            try writer.run()
            // Kill it while it saves, not while it starts: wait for its first save (a slow
            // machine or a sanitizer can take longer to start than any fixed delay), then a
            // random moment more.
            await waitForAState(after: highestState, in: file)
            try? await Task.sleep(for: .microseconds(Int.random(in: 0...30_000, using: &random)))
            kill(writer.processIdentifier, SIGKILL)
            let killed = await endedBySignal(writer)
            try #require(killed, "round \(round): the writer did not end by SIGKILL within 30 s")

            let document = try #require(try await file.load(), "round \(round): the file is gone")
            let name = try #require(
                document.first?.name, "round \(round): an empty document was saved")
            let state = try #require(
                Int(name.dropFirst("state ".count)), "round \(round): unexpected name \(name)")
            #expect(document.allSatisfy { $0.name == name }, "round \(round): a mix of two states")
            #expect(
                document.count == state % 50 + 1 || state == 0,
                "round \(round): state \(state) is incomplete")
            highestState = max(highestState, state)
        }
        #expect(highestState > 0, "the writer never completed a save")

        // Killed saves leave temporary files; the next save removes every one of them.
        try await file.overwrite(with: [Attraction(name: "after the crashes")])
        #expect(try folder.contents() == [".attractions.json.lock", "attractions.json"])
    }

    @Test("an SQLite writer killed with SIGKILL again and again loses no edit it reported saved")
    func killedDatabaseWriter() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("attractions.sqlite")
        var random = SeededGenerator(seed: 0x5C11_7E00)
        var acknowledged: [Int] = []

        for round in 1...12 {
            let output = Pipe()
            let writer = Process()
            writer.executableURL = try executable(named: "other-process")
            writer.arguments = ["--sqlite", url.path, String((acknowledged.last ?? 0) + 1)]
            writer.standardOutput = output
            try writer.run()
            // A writer that hangs before it has saved is killed, failing the round, not the suite.
            DispatchQueue.global().asyncAfter(deadline: .now() + 60) { [writer] in
                if writer.isRunning { kill(writer.processIdentifier, SIGKILL) }
            }
            // Kill it once it has saved a few edits, at a random moment within its next ones.
            let lines = LineReader(output.fileHandleForReading)
            var saved: [Int] = []
            while saved.count < 3, let line = await lines.next() {
                if let edit = Int(line.dropFirst("saved ".count)) { saved.append(edit) }
            }
            try? await Task.sleep(for: .microseconds(Int.random(in: 0...20_000, using: &random)))
            kill(writer.processIdentifier, SIGKILL)
            let killed = await endedBySignal(writer)
            try #require(killed, "round \(round): the writer did not end by SIGKILL within 30 s")
            // Every line printed before the kill counts: it was printed after its edit was saved.
            while let line = await lines.next() {
                if let edit = Int(line.dropFirst("saved ".count)) { saved.append(edit) }
            }
            #expect(saved.count >= 3, "round \(round): the writer saved too little")
            acknowledged += saved

            let names = Set(try await SQLiteListFile<Attraction>.read(from: url).map(\.name))
            let lost = acknowledged.filter { !names.contains("edit \($0)") }
            #expect(lost.isEmpty, "round \(round): edits reported saved are gone: \(lost)")
        }
    }

    /// Whether a killed writer ended by a signal, waiting at most 30 seconds for it to end.
    ///
    /// Asked of the system (`waitid` without reaping, so `Process` still reaps it): under load,
    /// `Process` has been seen to say a writer runs 30 s after `SIGKILL`, and `waitUntilExit()` to
    /// spin the calling thread's run loop for ever.
    private func endedBySignal(_ writer: Process) async -> Bool {
        let (pid, deadline) = (writer.processIdentifier, ContinuousClock.now + .seconds(30))
        while ContinuousClock.now < deadline {
            var info = siginfo_t()
            if waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 {
                #if canImport(Glibc)
                    let ended = info._sifields._sigchld.si_pid
                #else
                    let ended = info.si_pid
                #endif
                if ended == pid { return info.si_code == CLD_KILLED }
            } else if errno == ECHILD {
                // `Process` reaped it already, and knows how it ended once it says so.
                while writer.isRunning, ContinuousClock.now < deadline {
                    try? await Task.sleep(for: .milliseconds(1))
                }
                return !writer.isRunning && writer.terminationReason == .uncaughtSignal
            }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return false
    }

    /// Waits, for at most 30 seconds, until the file holds a state numbered above `state`.
    private func waitForAState(after state: Int, in file: DocumentFile<[Attraction]>) async {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(30))
        while clock.now < deadline {
            if let name = try? await file.load()?.first?.name,
                let saved = Int(name.dropFirst("state ".count)), saved > state
            {
                return
            }
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
}

/// A built executable of this package: it sits in the build folder beside the test binary.
func executable(named name: String) throws -> URL {
    var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<5 {
        let candidate = folder.appending(path: name)
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        folder.deleteLastPathComponent()
    }
    throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: name])
}

/// Reads lines from a pipe, one at a time, until it closes.
final class LineReader {
    private let handle: FileHandle
    private var buffer = Data()

    init(_ handle: FileHandle) {
        self.handle = handle
    }

    /// The next line, without its newline; `nil` once the pipe is closed and read.
    ///
    /// The pipe is read on a thread of its own: a writer under a sanitizer can take seconds to
    /// print, and a read on the cooperative pool would hold one of its threads as long.
    func next() async -> String? {
        while true {
            if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<end], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...end)
                return line
            }
            let handle = handle
            let chunk = await withCheckedContinuation { continuation in
                Thread.detachNewThread { continuation.resume(returning: handle.availableData) }
            }
            guard !chunk.isEmpty else { return nil }
            buffer += chunk
        }
    }
}
