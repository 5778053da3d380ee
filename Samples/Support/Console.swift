import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The terminal a sample talks to: standard input, output and error.
///
/// A sample is *interactive* when standard input is a terminal (it prompts and explains) and
/// *scripted* otherwise (one command per line, no prompt, deterministic output).
///
/// Output goes straight to the file descriptors, unbuffered, so output and errors interleave in
/// the order they happen. It deliberately avoids C's `stdout`: flushing C streams would wait for
/// the lock of `stdin`, which the thread reading commands holds while it waits for a line, and
/// would freeze the main actor (and every autosave or background load) until the user typed.
public struct Console: Sendable {
    /// Whether standard input is a terminal.
    public let isInteractive: Bool

    /// Creates a console for this process's standard streams.
    public init() {
        isInteractive = isatty(STDIN_FILENO) == 1
    }

    /// Writes one line to standard output.
    public func print(_ line: String) {
        writeAll(line + "\n", to: STDOUT_FILENO)
    }

    /// Writes `error: <message>` to standard error, with control characters in the message (it
    /// may quote what the user typed) made visible.
    public func printError(_ message: String) {
        writeAll("error: \(message.terminalSafe)\n", to: STDERR_FILENO)
    }

    /// Writes the first line of the program's usage text, and where the rest is, to standard
    /// error, after a usage error: short enough that the error above it stays in sight.
    public func printUsageHint(_ usage: String) {
        let synopsis = usage.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? usage
        writeAll(synopsis + "\nRun with --help for the options and commands.\n", to: STDERR_FILENO)
    }

    /// Writes the prompt, without a newline.
    public func printPrompt(_ prompt: String) {
        writeAll(prompt, to: STDOUT_FILENO)
    }
}

/// Writes all of `text` to a file descriptor, after what was written before it, on a thread of
/// its own: a reader that stops reading (a full pipe) holds up that thread, never the main actor,
/// so saving and the signals go on.
///
/// Once a reader has closed the descriptor (EPIPE: `… | head`), what is written to it is
/// dropped, and the program is told once (see ``ClosedOutput``): it writes what is pending and
/// then ends by SIGPIPE, as it does on SIGINT or SIGTERM.
func writeAll(_ text: String, to descriptor: Int32) {
    Output.queue.async { writeNow(text, to: descriptor) }
}

/// The order output leaves in: one queue for standard output and standard error, so that lines
/// keep their order across the two.
enum Output {
    fileprivate static let queue: DispatchQueue = {
        let queue = DispatchQueue(label: "SampleSupport.output")
        queue.setSpecific(key: isOutputQueue, value: true)
        return queue
    }()
    private static let isOutputQueue = DispatchSpecificKey<Bool>()
    /// Set by `exitProcess(_:)` as the main thread waits for the last output to leave: from then
    /// on a signal ends the process from the thread that hears it (see ``ExitSignals``), since the
    /// main actor, where its clean-up would run, waits until the end.
    private static let finishing = Atomic<Bool>(false)
    private static let heardSignal = Atomic<Int32>(0)

    /// Marks the last wait for the output; returns a signal heard that the main actor has not
    /// taken (it is then to end the process).
    static func beginFinishing() -> Int32? {
        finishing.store(true, ordering: .sequentiallyConsistent)
        let signal = heardSignal.load(ordering: .sequentiallyConsistent)
        return signal == 0 ? nil : signal
    }

    /// Records that `signal` was heard, and says whether the process is in its last wait.
    ///
    /// In that wait for the output, the signal is to end the process from the caller's thread.
    /// Of this and ``beginFinishing()``, whichever comes second sees the other.
    static func heard(_ signal: Int32) -> Bool {
        heardSignal.store(signal, ordering: .sequentiallyConsistent)
        return finishing.load(ordering: .sequentiallyConsistent)
    }

    /// Waits until everything written so far has left, for at most `limit`.
    ///
    /// `nil` waits as long as it takes, as a blocking write would. On the output's own thread (a
    /// closed pipe ending the process from there), it returns at once.
    static func drain(within limit: DispatchTimeInterval? = nil) {
        guard DispatchQueue.getSpecific(key: isOutputQueue) != true else { return }
        let done = DispatchSemaphore(value: 0)
        queue.async { done.signal() }
        if let limit { _ = done.wait(timeout: .now() + limit) } else { done.wait() }
    }
}

/// Writes all of `text` now, retrying short and interrupted writes.
private func writeNow(_ text: String, to descriptor: Int32) {
    guard !ClosedOutput.isClosed(descriptor) else { return }
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { buffer in
            write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
        }
        if written < 0, errno == EINTR { continue }
        if written < 0, errno == EPIPE {
            ClosedOutput.readerClosed(descriptor)
            return
        }
        guard written > 0 else { return }
        offset += written
    }
}
