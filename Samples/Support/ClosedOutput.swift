import Synchronization

/// What a sample does when the reader of its output goes away (`attractions | head -6`).
///
/// The first write to a closed pipe fails with EPIPE (SIGPIPE is ignored, see ``ExitSignals``).
/// From then on, output to that descriptor is dropped, and the handler ``ExitSignals`` installed
/// runs once: it writes what is pending, as on SIGINT, and ends the process by SIGPIPE. Without a
/// handler the process ends by SIGPIPE at once, after putting the terminal back.
enum ClosedOutput {
    private struct State {
        var closed: Set<Int32> = []
        var handler: (@Sendable () -> Void)?
    }

    private static let state = Mutex(State())

    /// Whether a reader has closed `descriptor`.
    static func isClosed(_ descriptor: Int32) -> Bool {
        state.withLock { $0.closed.contains(descriptor) }
    }

    /// Sets what runs, once, when a reader first closes an output.
    static func setHandler(_ handler: (@Sendable () -> Void)?) {
        state.withLock { $0.handler = handler }
    }

    /// Records that a write to `descriptor` met a closed pipe, and tells the handler the first
    /// time any output is closed.
    static func readerClosed(_ descriptor: Int32) {
        let (isFirst, handler) = state.withLock { state in
            let isFirst = state.closed.isEmpty
            state.closed.insert(descriptor)
            return (isFirst, state.handler)
        }
        guard isFirst else { return }
        guard let handler else { TerminalInput.endByBrokenPipe() }
        handler()
    }
}
