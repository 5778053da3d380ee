import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ends a sample cleanly on SIGINT (Ctrl-C), SIGTERM, SIGHUP and SIGQUIT: what is pending is written
/// first, then the process ends *by the same signal*, so its parent sees the usual status (130
/// for Ctrl-C in a shell, 143 for SIGTERM).
///
/// The signals are caught by dispatch sources on the main queue, not by a C handler, so the
/// cleanup runs as ordinary code on the main actor (a C signal handler may call almost nothing).
/// After the cleanup, the terminal's settings are put back (`TerminalInput.restoreTerminal()`), since
/// line editing switches it out of its normal mode. SIGPIPE is ignored, so a write to a closed
/// pipe fails instead of killing the process: a reader that stops early (`… | head`) is handled
/// like a signal (see ``ClosedOutput``): what is pending is written, then the process ends by
/// SIGPIPE.
///
/// SIGKILL cannot be caught: what it can lose is what was not yet written, which is at most the
/// edits of the autosave delay before it.
@MainActor
public final class ExitSignals {
    /// The signals a sample cleans up on.
    public static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    private var sources: [any DispatchSourceSignal] = []
    /// Whether signal handling is set up already (by a sample, or by the command loop).
    public private(set) static var isInstalled = false
    private var isExiting = false

    /// Starts catching the signals; `cleanUp` runs once, on the first of them.
    ///
    /// - Parameter cleanUp: Writes what is pending; the process then ends by the signal.
    public init(cleanUp: @escaping @MainActor () async -> Void) {
        Self.isInstalled = true
        // A write to a closed pipe fails with EPIPE instead of killing the process at once, so
        // what is pending is written and the terminal put back first.
        signal(SIGPIPE, SIG_IGN)
        ClosedOutput.setHandler { [weak self] in
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    guard let self else { TerminalInput.endByBrokenPipe() }
                    self.received(SIGPIPE, cleanUp: cleanUp)
                }
            }
        }
        for signalNumber in Self.handled {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
            source.setEventHandler { [weak self] in
                MainActor.assumeIsolated {
                    self?.received(signalNumber, cleanUp: cleanUp)
                }
            }
            source.resume()
            sources.append(source)
        }
    }

    private func received(_ signalNumber: Int32, cleanUp: @escaping @MainActor () async -> Void) {
        guard !isExiting else { return }
        isExiting = true
        Task { @MainActor in
            await cleanUp()
            TerminalInput.restoreTerminal()
            // End by the same signal, from this thread, with the signal unblocked here: a
            // process-directed signal can stay pending for ever when every thread happens to block
            // it (the system's pool threads do), which left a process hanging after SIGHUP.
            Self.raiseWithDefaultAction(signalNumber)
            // Not reached: the default action of these signals ends the process.
            _exit(128 + signalNumber)
        }
    }

    /// Raises `signalNumber` with its default action, from this thread with the signal unblocked
    /// here; returns only if that action does not end the process (a stop, once continued).
    nonisolated static func raiseWithDefaultAction(_ signalNumber: Int32) {
        signal(signalNumber, SIG_DFL)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, signalNumber)
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        raise(signalNumber)
    }
}
