import Dispatch
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
    /// What the reader thread and the main actor share.
    ///
    /// The editor and its prompt. Every write to the terminal that involves the line being edited
    /// happens while holding it, so typing and a screen redrawn in the background never
    /// interleave (plain prints, such as `--trace` lines from background work, do not take it).
    private struct Shared: Sendable {
        var editor = LineEditor()
        var prompt = "> "
    }

    /// The terminal's settings before and during editing, under a lock of their own: restoring
    /// them never waits for the lock a write may be holding (a write to a closed pipe restores
    /// the terminal from inside it).
    ///
    /// Plain values and a flag, not two optional `termios`: the 6.3 optimizer read a pair of `nil`
    /// optionals under the lock as a zeroed `termios`, and restoring that wrecked the terminal of
    /// every release run whose output was not a terminal (`attractions > file`).
    private struct Settings: Sendable {
        /// Whether `saved` holds the settings to put back.
        var isChanged = false
        var saved = termios()
        var editing = termios()

        /// Takes the settings to put back, if any, so they are put back once.
        mutating func takeSaved() -> (Bool, termios) {
            defer { isChanged = false }
            return (isChanged, saved)
        }
    }

    private static let shared = Mutex(Shared())
    private static let settings = Mutex(Settings())
    /// Keeps the dispatch source for Control-Z alive; set once, when editing begins (before the
    /// reader thread starts), and never read, so no two threads touch it.
    nonisolated(unsafe) private static var suspension: (any DispatchSourceSignal)?

    /// Whether lines can be edited here: standard input and standard output are both a terminal.
    public static var canEdit: Bool {
        isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
    }

    /// The command lines of standard input, read by a thread of its own so no task blocks.
    ///
    /// - Parameter interactive: Whether standard input is a terminal to edit on (lines are edited
    ///   only when standard output is a terminal too).
    /// - Returns: The lines, each with its keys applied; the stream ends at end of input.
    static func lines(interactive: Bool) -> AsyncStream<String> {
        let editing = interactive && canEdit && enterEditingMode()
        return AsyncStream { continuation in
            let reader = Thread {
                if editing {
                    readEditedLines(into: continuation)
                    restoreTerminal()
                } else {
                    // A script's lines are text as they are: the command loop refuses one with
                    // a control character, rather than reading it as keys and dropping it.
                    while let line = readLine(strippingNewline: true) {
                        // A carriage return before the newline (a script saved with CRLF) is not
                        // part of the command.
                        continuation.yield(line.hasSuffix("\r") ? String(line.dropLast()) : line)
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
        shared.withLock { state in
            state.prompt = prompt
            write(state.editor.rendering(prompt: prompt, width: width()))
        }
    }

    /// Prints `text` above the line being edited: the line gives way, `text` is printed, and the
    /// prompt and the line come back below it, all while no key can be drawn in between.
    ///
    /// - Parameter text: Whole lines to print (a final newline is added).
    public static func printAbovePrompt(_ text: String) {
        shared.withLock { state in
            write(
                "\r\u{1B}[K" + text + "\n"
                    + state.editor.rendering(prompt: state.prompt, width: width()))
        }
    }

    /// Puts the terminal's settings back as they were before editing began.
    ///
    /// Does nothing if they were never changed; safe to call more than once, from any thread.
    public static func restoreTerminal() {
        var (isChanged, saved) = settings.withLock { $0.takeSaved() }
        guard isChanged else { return }
        tcsetattr(STDIN_FILENO, TCSANOW, &saved)
    }

    /// Writes `text` to standard output (see `writeAll(_:to:)` for a closed pipe).
    static func write(_ text: String) {
        writeAll(text, to: STDOUT_FILENO)
    }

    /// Restores the terminal, then ends the process by SIGPIPE.
    static func endByBrokenPipe() -> Never {
        restoreTerminal()
        ExitSignals.raiseWithDefaultAction(SIGPIPE)
        _exit(128 + SIGPIPE)
    }

    /// The terminal's width in columns (80 if it cannot be read).
    private static func width() -> Int {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
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
        settings.withLock {
            $0.isChanged = true
            $0.saved = original
            $0.editing = editing
        }
        atexit { TerminalInput.restoreTerminal() }
        guard tcsetattr(STDIN_FILENO, TCSANOW, &editing) == 0 else {
            settings.withLock { $0.isChanged = false }
            return false
        }
        handleSuspension()
        return true
    }

    /// Control-Z puts the terminal back before the process stops; `fg` switches editing on
    /// again and redraws the line.
    private static func handleSuspension() {
        signal(SIGTSTP, SIG_IGN)
        let stop = DispatchSource.makeSignalSource(signal: SIGTSTP, queue: .global())
        stop.setEventHandler {
            let (wasEditing, saved) = settings.withLock { ($0.isChanged, $0.saved) }
            restoreTerminal()
            ExitSignals.raiseWithDefaultAction(SIGTSTP)
            // Continued. Block the signal in this thread again, so the next Control-Z reaches
            // this source instead of being ignored here.
            var stopSignal = sigset_t()
            sigemptyset(&stopSignal)
            sigaddset(&stopSignal, SIGTSTP)
            pthread_sigmask(SIG_BLOCK, &stopSignal, nil)
            signal(SIGTSTP, SIG_IGN)
            // Editing again, as before the stop, unless editing had already ended.
            guard wasEditing else { return }
            var editing = settings.withLock { state in
                state.isChanged = true
                state.saved = saved
                return state.editing
            }
            tcsetattr(STDIN_FILENO, TCSANOW, &editing)
            shared.withLock { state in
                write("\n" + state.editor.rendering(prompt: state.prompt, width: width()))
            }
        }
        stop.resume()
        suspension = stop
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
            let outcome = shared.withLock { state in
                let outcome = state.editor.handle(key)
                switch outcome {
                case .editing: write(state.editor.rendering(prompt: state.prompt, width: width()))
                case .submitted, .endOfInput: write("\n")
                }
                return outcome
            }
            switch outcome {
            case .editing:
                continue
            case .submitted(let line):
                continuation.yield(line)
            case .endOfInput:
                return
            }
        }
    }
}
