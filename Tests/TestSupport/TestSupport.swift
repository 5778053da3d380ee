import Foundation
import MVCListStore
package import MVCModel
import MVCObservation
package import MVCStore

/// A deterministic random number generator (SplitMix64), so a failing random test can be replayed.
package struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    package init(seed: UInt64) {
        state = seed
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

/// Records every change a store publishes.
@MainActor
package final class ChangeLog {
    package private(set) var changes: [AttractionListChange] = []
    private var token: ObservationToken?

    package init(_ store: AttractionStore) {
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
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    /// Runs `body` on the state, holding the lock.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// A clock whose time moves only when the test advances it, to drive a saver's timer and watcher
/// by hand: no real waiting, and no race with the machine's speed.
package final class TestClock: Clock, Sendable {
    package struct Instant: InstantProtocol {
        package var offset: Duration

        package init(offset: Duration) { self.offset = offset }

        package func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }
        package func duration(to other: Instant) -> Duration { other.offset - offset }
        package static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
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

    package init() {}

    package var now: Instant { state.withLock { $0.now } }
    package var minimumResolution: Duration { .zero }

    /// Waits until the clock is advanced to `deadline`, or throws `CancellationError` when the
    /// sleeping task is cancelled.
    package func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
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
    package var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Waits until at least `count` sleeps are waiting.
    package func waitForSleepers(_ count: Int) async {
        while sleeperCount < count { await Task.yield() }
    }

    /// Moves time on by `duration`, ending every sleep whose deadline it reaches.
    package func advance(by duration: Duration) {
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
    package func advance() {
        let latest = state.withLock { state in
            state.sleepers.values.map(\.deadline.offset).max().map { $0 - state.now.offset }
        }
        advance(by: max(latest ?? .zero, .zero))
    }
}

/// Parses addresses the tests know are valid.
package func address(_ text: String) -> EmailAddress {
    do {
        return try EmailAddress(text)
    } catch {
        preconditionFailure("test address \(text) is invalid: \(error)")
    }
}
