import Dispatch
import Foundation

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
/// The handler only writes the signal's number to a pipe (`write` is one of the few calls a
/// signal handler may make); a thread of its own reads the pipe and hands the signal to the main
/// actor, where the cleanup runs as ordinary code. Whichever thread the system interrupts runs
/// the handler, so no signal is lost to a thread's mask. (Dispatch's signal sources were used
/// first; on Linux about one SIGTERM in a few hundred never reached theirs, and the sample ran on.)
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
        let readEnd = SignalPipe.open()
        for signalNumber in Self.handled {
            signal(signalNumber, SignalPipe.forward)
        }
        Thread.detachNewThread { [weak self] in
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count < 0, errno == EINTR { continue }
                guard count == 1 else { return }
                let signalNumber = Int32(byte)
                // Everything is saved, and the main actor waits for the last output to leave:
                // ended from here (a full pipe would otherwise hold the process for ever).
                if Output.heard(signalNumber) {
                    TerminalInput.restoreTerminal()
                    Self.raiseWithDefaultAction(signalNumber)
                }
                DispatchQueue.main.async {
                    MainActor.assumeIsolated {
                        self?.received(signalNumber, cleanUp: cleanUp)
                    }
                }
            }
        }
    }

    /// Whether a signal (or a closed output) is ending the process: from then on no command is
    /// handled (see ``waitForTheEnd()``), so what is pending stops growing and gets written.
    public private(set) static var isEnding = false

    /// Suspends until the process ends, for code that must do nothing more once
    /// ``isEnding`` (the signal's clean-up ends the process; returning would race it).
    public static func waitForTheEnd() async {
        while true { try? await Task.sleep(for: .seconds(3_600)) }
    }

    private func received(_ signalNumber: Int32, cleanUp: @escaping @MainActor () async -> Void) {
        guard !isExiting else { return }
        isExiting = true
        Self.isEnding = true
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
        // What was printed goes out first, unless nobody reads it (a full pipe): a signal ends
        // the process all the same.
        Output.drain(within: .seconds(2))
        signal(signalNumber, SIG_DFL)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, signalNumber)
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        raise(signalNumber)
    }
}

/// The pipe from the signal handler to the thread that hands signals to the main actor.
private enum SignalPipe {
    /// The write end.
    ///
    /// Unchecked, and safe: it is set once, by `open()`, before any handler that reads it is
    /// installed, and only read from then on (by the handler, on whichever thread it runs).
    nonisolated(unsafe) static var writeEnd: Int32 = -1

    /// Makes the pipe (both ends closed on `exec`; the write end never blocks: a handler that
    /// waited for room would hang its thread); returns the read end.
    static func open() -> Int32 {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return -1 }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        writeEnd = ends[1]
        return ends[0]
    }

    /// The signal handler: writes the signal's number to the pipe, keeping `errno` as it was.
    static let forward: @convention(c) (Int32) -> Void = { signalNumber in
        let saved = errno
        var byte = UInt8(truncatingIfNeeded: signalNumber)
        _ = write(writeEnd, &byte, 1)
        errno = saved
    }
}
