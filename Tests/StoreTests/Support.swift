import Foundation
import MVCModel
import MVCObservation
import MVCPersistence
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

/// Sleeps that only end when the test says so, to drive a saver's timer by hand.
actor ManualClock {
    private var sleepers: [UUID: CheckedContinuation<Void, any Error>] = [:]

    /// The sleep function to inject.
    nonisolated var sleep: CoalescingSaver<[Attraction]>.Sleep {
        { _ in try await self.waitForAdvance() }
    }

    /// Waits until ``advance()``, or throws `CancellationError` when the sleeping task is cancelled.
    private func waitForAdvance() async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<Void, any Error>) in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    sleepers[id] = continuation
                }
            }
        } onCancel: {
            Task { await self.cancel(id) }
        }
    }

    private func cancel(_ id: UUID) {
        sleepers.removeValue(forKey: id)?.resume(throwing: CancellationError())
    }

    /// How many sleeps are waiting.
    var sleeperCount: Int { sleepers.count }

    /// Waits until at least `count` sleeps are waiting.
    func waitForSleepers(_ count: Int) async {
        while sleepers.count < count { await Task.yield() }
    }

    /// Ends every sleep now waiting.
    func advance() {
        let waking = sleepers.values
        sleepers.removeAll()
        for sleeper in waking { sleeper.resume() }
    }
}

/// The bytes of a file, read through a file handle: `Data(contentsOf:)` leaks its buffer for an
/// empty file on Linux, which LeakSanitizer reports.
func contents(of url: URL) throws -> Data {
    let handle = try FileHandle(forReadingFrom: url)
    defer { try? handle.close() }
    return try handle.readToEnd() ?? Data()
}
