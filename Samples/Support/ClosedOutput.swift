import Synchronization

/// What a sample does when the reader of its output goes away (`attractions | head -6`).
///
/// The first write to a closed pipe fails with EPIPE (SIGPIPE is ignored, see ``ExitSignals``).
/// From then on, output to that descriptor is dropped, and the handler ``ExitSignals`` installed
/// runs once: it writes what is pending, as on SIGINT, and ends the process by SIGPIPE. Without a
/// handler the process ends by SIGPIPE at once, after putting the terminal back.
///
/// Every write asks whether its descriptor is closed, from whichever thread writes (the main
/// actor, the thread that redraws the line being edited), so the state is atomics, not a
/// `Mutex`: ThreadSanitizer cannot see a `Mutex`'s ordering on Linux and reported two writers.
enum ClosedOutput {
    /// One bit per closed descriptor (standard output and error are the ones written to).
    private static let closed = Atomic<UInt64>(0)
    private static let handlerBox = HandlerBox()

    /// The handler, set once by ``ExitSignals`` before any thread writes.
    private final class HandlerBox: Sendable {
        let handler = Atomic<UInt8>(0)  // 0: none yet; 1: set
        nonisolated(unsafe) var action: (@Sendable () -> Void)?
    }

    /// Whether a reader has closed `descriptor`.
    static func isClosed(_ descriptor: Int32) -> Bool {
        guard (0..<64).contains(descriptor) else { return false }
        return closed.load(ordering: .acquiring) & (1 << UInt64(descriptor)) != 0
    }

    /// Sets what runs, once, when a reader first closes an output; call it before any thread
    /// writes (a sample's signal handling is set up before its command loop starts).
    static func setHandler(_ handler: (@Sendable () -> Void)?) {
        handlerBox.action = handler
        handlerBox.handler.store(handler == nil ? 0 : 1, ordering: .releasing)
    }

    /// Records that a write to `descriptor` met a closed pipe, and tells the handler the first
    /// time any output is closed.
    static func readerClosed(_ descriptor: Int32) {
        guard (0..<64).contains(descriptor) else { return }
        let before = closed.bitwiseOr(1 << UInt64(descriptor), ordering: .acquiringAndReleasing)
            .oldValue
        guard before == 0 else { return }
        guard handlerBox.handler.load(ordering: .acquiring) == 1, let action = handlerBox.action
        else { TerminalInput.endByBrokenPipe() }
        action()
    }
}
