import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads command lines: on a terminal with line editing (arrows, Home, End, Backspace, Delete,
/// history), from a pipe one line at a time, with escape sequences applied as keys either way.
///
/// On a terminal, standard input is switched to non-canonical mode without echo while the
/// samples run (signals such as Control-C still work); ``restoreTerminal()`` puts the settings
/// back, and it runs on every exit: end of input, `quit`, `exit()`, and the signals the samples
/// handle (see `ExitSignals`).
public enum TerminalInput {
    /// What the reader thread and the main actor share: the editor, its prompt, and the
    /// terminal's settings before editing began.
    private struct Shared: Sendable {
        var editor = LineEditor()
        var prompt = "> "
        var savedSettings: termios?
    }

    private static let shared = Mutex(Shared())

    /// The command lines of standard input, read by a thread of its own so no task blocks.
    ///
    /// - Parameter interactive: Whether standard input is a terminal to edit on.
    /// - Returns: The lines, each with its keys applied; the stream ends at end of input.
    static func lines(interactive: Bool) -> AsyncStream<String> {
        let editing = interactive && enterEditingMode()
        return AsyncStream { continuation in
            let reader = Thread {
                if editing {
                    readEditedLines(into: continuation)
                    restoreTerminal()
                } else {
                    var editor = LineEditor()
                    while let line = readLine(strippingNewline: true) {
                        continuation.yield(editor.replay(line))
                    }
                }
                continuation.finish()
            }
            reader.start()
        }
    }

    /// Shows `prompt` and the line typed so far (a user may type ahead of the prompt).
    ///
    /// - Parameter prompt: The prompt to show from now on.
    public static func showPrompt(_ prompt: String) {
        let text = shared.withLock { state in
            state.prompt = prompt
            return state.editor.rendering(prompt: prompt)
        }
        write(text)
    }

    /// Clears the prompt's line, so output can take its place; ``redrawPrompt()`` brings it back.
    public static func clearPromptLine() {
        write("\r\u{1B}[K")
    }

    /// Draws the prompt and the line typed so far again, after other output took the line.
    public static func redrawPrompt() {
        write(shared.withLock { $0.editor.rendering(prompt: $0.prompt) })
    }

    /// Puts the terminal's settings back as they were before editing began.
    ///
    /// Does nothing if they were never changed; safe to call more than once, from any thread.
    public static func restoreTerminal() {
        guard
            var settings = shared.withLock({ state -> termios? in
                defer { state.savedSettings = nil }
                return state.savedSettings
            })
        else { return }
        tcsetattr(STDIN_FILENO, TCSANOW, &settings)
    }

    /// Switches standard input to non-canonical mode without echo; `false` if it cannot.
    private static func enterEditingMode() -> Bool {
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { return false }
        var editing = original
        editing.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &editing.c_cc) { characters in
            characters[Int(VMIN)] = 1
            characters[Int(VTIME)] = 0
        }
        shared.withLock { $0.savedSettings = original }
        atexit { TerminalInput.restoreTerminal() }
        guard tcsetattr(STDIN_FILENO, TCSANOW, &editing) == 0 else {
            shared.withLock { $0.savedSettings = nil }
            return false
        }
        return true
    }

    /// Reads keys until end of input, drawing the line after each and yielding each entered line.
    private static func readEditedLines(into continuation: AsyncStream<String>.Continuation) {
        var decoder = KeyDecoder()
        var byte: UInt8 = 0
        while true {
            let count = read(STDIN_FILENO, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1 else { return }
            guard let key = decoder.feed(byte) else { continue }
            let (outcome, text) = shared.withLock { state in
                let outcome = state.editor.handle(key)
                return (outcome, state.editor.rendering(prompt: state.prompt))
            }
            switch outcome {
            case .editing:
                write(text)
            case .submitted(let line):
                write("\n")
                continuation.yield(line)
            case .endOfInput:
                write("\n")
                return
            }
        }
    }

    private static func write(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                Glibc.write(
                    STDOUT_FILENO, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
