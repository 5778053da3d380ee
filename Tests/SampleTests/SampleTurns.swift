import Foundation
import Testing

/// Lets at most as many tests run samples at once as the machine has cores, across every suite
/// that has the trait.
///
/// The samples are processes of their own: a dozen tests starting theirs at once on two cores
/// (each with a sanitizer or coverage counters) left each one so little time that its first
/// screen took longer than a test waits for it. The tests wait for their samples in tasks that
/// leave the cooperative pool free, so nothing else limited them. A test takes one turn for all
/// the samples it runs: taken per sample, tests that run several could each hold some and wait
/// for more, for ever.
struct SampleTurns: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard !test.isSuite else { return try await function() }
        await Turns.shared.take()
        defer { Turns.shared.give() }
        try await function()
    }
}

extension Trait where Self == SampleTurns {
    /// Each test runs its samples in turn with other tests' (see ``SampleTurns``).
    static var samplesTakeTurns: Self { Self() }
}

/// A count of turns, taken by waiting tasks in order.
///
/// `@unchecked Sendable`: `free` and `waiting` are used only while `lock` is held. It is an
/// `NSLock`, not a `Mutex`, as ThreadSanitizer on Linux cannot see `Mutex`'s hand-off of a
/// contended lock.
private final class Turns: @unchecked Sendable {
    static let shared = Turns(count: max(2, ProcessInfo.processInfo.activeProcessorCount))

    private let lock = NSLock()
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    private init(count: Int) {
        free = count
    }

    /// Waits for a turn and takes it.
    func take() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = lock.withLock {
                if free > 0 {
                    free -= 1
                    return true
                }
                waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Gives a turn back, to the task that has waited longest if any.
    func give() {
        let next = lock.withLock {
            if waiting.isEmpty {
                free += 1
                return nil as CheckedContinuation<Void, Never>?
            }
            return waiting.removeFirst()
        }
        next?.resume()
    }
}
