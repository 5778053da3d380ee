import Foundation
import MVCDocumentStore
import MVCModel
import MVCObservation
import MVCStore

/// A fresh folder for one test, removed when the test lets go of it.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appending(
            path: "mvclayers-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL {
        url.appending(path: name)
    }

    /// The names of the entries in the folder, sorted.
    func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

/// A deterministic random number generator (SplitMix64), so a failing random test can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

/// Records every change a store publishes.
@MainActor
final class ChangeLog {
    private(set) var changes: [AttractionListChange] = []
    private var token: ObservationToken?

    init(_ store: AttractionStore) {
        token = store.changes.subscribeToAll { [weak self] update in
            self?.changes.append(update.change)
        }
    }
}

/// State that several threads share, touched only while its `NSLock` is held.
///
/// Not `Mutex`: on Linux a contended `Mutex` is handed over by the kernel, in a library the
/// thread sanitizer does not instrument, so it reports the next access as a race (CI's sanitizer
/// run did, on `TestClock`). `NSLock` is a `pthread_mutex`, which the sanitizer follows.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` on the state, holding the lock.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// A clock whose time moves only when the test advances it, to drive a saver's timer and watcher
/// by hand: no real waiting, and no race with the machine's speed.
final class TestClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration

        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [UUID: Sleeper] = [:]
    }

    private let state = Locked(State())

    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .zero }

    /// Waits until the clock is advanced to `deadline`, or throws `CancellationError` when the
    /// sleeping task is cancelled.
    func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: Bool = state.withLock { state in
                    if Task.isCancelled || deadline <= state.now { return true }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return false
                }
                if resumeNow {
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        continuation.resume()
                    }
                }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// How many sleeps are waiting.
    var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Waits until at least `count` sleeps are waiting.
    func waitForSleepers(_ count: Int) async {
        while sleeperCount < count { await Task.yield() }
    }

    /// Moves time on by `duration`, ending every sleep whose deadline it reaches.
    func advance(by duration: Duration) {
        let waking = state.withLock { state in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.values.map(\.continuation)
        }
        for continuation in waking { continuation.resume() }
    }

    /// Moves time on to the latest deadline now waiting, ending every sleep.
    func advance() {
        let latest = state.withLock { state in
            state.sleepers.values.map(\.deadline.offset).max().map { $0 - state.now.offset }
        }
        advance(by: max(latest ?? .zero, .zero))
    }
}

/// The bytes of a file, read through a file handle: `Data(contentsOf:)` leaks its buffer for an
/// empty file on Linux, which LeakSanitizer reports.
func contents(of url: URL) throws -> Data {
    let handle = try FileHandle(forReadingFrom: url)
    defer { try? handle.close() }
    return try handle.readToEnd() ?? Data()
}

/// Returns once `process` has exited, polling between short sleeps.
///
/// Not `waitUntilExit()`, which blocks the calling thread: called from a test on the main
/// actor, it held every other test's main-actor work (their waits for another process's edit
/// among them) for as long as the child took to start and end, which on a loaded machine was
/// long enough for those waits to give up.
func exited(_ process: Process) async {
    while process.isRunning { try? await Task.sleep(for: .milliseconds(5)) }
}

/// Where a child process's output goes: a temporary file, read once the child has exited.
///
/// Not a pipe: a pipe's write end is inherited by any child another test starts meanwhile, so
/// reading the pipe to its end waits for that child to exit too. When that child waits for the
/// actor the read blocks (a test's next step), the whole run hangs: CI caught one, with the
/// main actor blocked in such a read for as long as CI let it run.
final class ChildOutput {
    let handle: FileHandle
    private let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appending(
            path: "child-output-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown)
        }
        handle = try FileHandle(forWritingTo: url)
    }

    deinit {
        try? handle.close()
        try? FileManager.default.removeItem(at: url)
    }

    /// What the child wrote; for once it has exited.
    func text() throws -> String {
        String(decoding: try contents(of: url), as: UTF8.self)
    }
}

/// The real file-system calls of a replacement, but for what a test changes: something done
/// just after the rename (another program acting in that window), or a folder flush that fails.
struct AlteredReplacementSteps: FileReplacementSteps {
    private let real = POSIXReplacementSteps()
    let afterRename: @Sendable (String) throws -> Void
    let folderSyncFailure: String?

    init(
        folderSyncFailure: String? = nil,
        afterRename: @escaping @Sendable (String) throws -> Void = { _ in }
    ) {
        self.folderSyncFailure = folderSyncFailure
        self.afterRename = afterRename
    }

    func createNew(_ path: String) throws(FileReplacementFailure) -> Int32 {
        try real.createNew(path)
    }
    func copyPermissions(from target: String, to handle: Int32) throws(FileReplacementFailure) {
        try real.copyPermissions(from: target, to: handle)
    }
    func write(_ data: Data, to handle: Int32) throws(FileReplacementFailure) {
        try real.write(data, to: handle)
    }
    func sync(_ handle: Int32) throws(FileReplacementFailure) { try real.sync(handle) }
    func close(_ handle: Int32) { real.close(handle) }
    func rename(_ source: String, to destination: String) throws(FileReplacementFailure) {
        try real.rename(source, to: destination)
        do { try afterRename(destination) } catch { throw FileReplacementFailure("\(error)") }
    }
    func syncFolder(_ path: String) throws(FileReplacementFailure) {
        if let folderSyncFailure { throw FileReplacementFailure(folderSyncFailure) }
        try real.syncFolder(path)
    }
    func remove(_ path: String) { real.remove(path) }
}
