import Foundation

/// State that several threads share, read and changed only while its `NSLock` is held.
///
/// Not `Mutex`: on Linux a contended `Mutex` is handed over by the kernel (a priority-inheriting
/// futex, in an uninstrumented library), so ThreadSanitizer cannot see the hand-off and reports
/// the next access as a race. `pthread_mutex`, under `NSLock`, is one it follows.
/// `@unchecked Sendable`: `value` is touched only inside ``withLock(_:)``.
final class LockedState<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` on the state, holding the lock.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
