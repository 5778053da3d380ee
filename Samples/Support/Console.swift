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
public struct Console: Sendable {
    /// Whether standard input is a terminal.
    public let isInteractive: Bool

    /// Creates a console for this process's standard streams.
    public init() {
        isInteractive = isatty(STDIN_FILENO) == 1
    }

    /// Writes one line to standard output.
    public func print(_ line: String) {
        Swift.print(line)
    }

    /// Writes `error: <message>` to standard error.
    public func printError(_ message: String) {
        var standardError = StandardError()
        Swift.print("error: \(message)", to: &standardError)
    }

    /// Writes the prompt without a newline, and flushes it so it shows before input is read.
    public func printPrompt(_ prompt: String) {
        Swift.print(prompt, terminator: "")
        fflush(nil)
    }
}

/// Standard error as a `TextOutputStream`, unbuffered so errors interleave with output in order.
private struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        fflush(nil)
        writeToStandardError(Array(string.utf8))
    }
}

/// Writes all of `bytes` to file descriptor 2, retrying short writes.
private func writeToStandardError(_ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { buffer in
            write(STDERR_FILENO, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
        }
        guard written > 0 else { return }
        offset += written
    }
}
