import Foundation

/// What became of one command line.
public enum CommandOutcome: Equatable, Sendable {
    /// The command did what it was asked.
    case succeeded
    /// The command was refused or failed; the message says why and is shown as `error: ...`.
    case failed(String)
    /// The user asked to leave.
    case quit
}

/// Reads commands one line at a time and hands each to the sample, until `quit` or end of input.
///
/// Lines are read on a thread of their own and handed to the main actor, so the main actor stays
/// free between commands: an autosave timer or a background load can land while the user types.
/// On a terminal the line can be edited (see ``TerminalInput``), and the terminal's settings are
/// restored when the loop ends or a signal ends the process.
/// Blank lines and lines starting with `#` are skipped, so a script can carry comments. A failed
/// command is reported on standard error and the loop goes on; the exit status says whether any
/// command failed.
@MainActor
public struct CommandLoop {
    private let console: Console
    private let prompt: String

    /// Creates a loop that reads from `console`, prompting with `prompt` when interactive.
    public init(console: Console, prompt: String = "> ") {
        self.console = console
        self.prompt = prompt
    }

    /// Runs commands until `quit` or end of input.
    ///
    /// - Parameter handle: Performs one command line (trimmed, never blank); the next line is not
    ///   handled before it returns.
    /// - Returns: The process exit status: 1 if any command failed while scripted, otherwise 0.
    public func run(_ handle: (String) async -> CommandOutcome) async -> Int32 {
        var anyFailed = false
        // A signal must put the terminal back before the process ends (and SIGQUIT must end
        // it: the runtime's crash reporter waits for ever on a SIGQUIT sent from outside).
        let signals = ExitSignals.isInstalled ? nil : ExitSignals {}
        defer {
            TerminalInput.restoreTerminal()
            _ = signals
        }
        // On a terminal, editing begins (echo off) before the first prompt is drawn.
        let lines = TerminalInput.lines(interactive: console.isInteractive)
        showPrompt()
        for await rawLine in lines {
            // Ending by a signal: no more commands, and no return that would race its clean-up.
            if ExitSignals.isEnding { await ExitSignals.waitForTheEnd() }
            let line = rawLine.trimmingBlanks()
            if line.isEmpty || line.hasPrefix("#") {
                showPrompt()
                continue
            }
            if let problem = Self.textProblem(in: line) {
                console.printError(problem)
                anyFailed = true
                showPrompt()
                continue
            }
            switch await handle(line) {
            case .succeeded:
                break
            case .failed(let message):
                console.printError(message)
                anyFailed = true
            case .quit:
                return exitStatus(anyFailed: anyFailed)
            }
            showPrompt()
        }
        if ExitSignals.isEnding { await ExitSignals.waitForTheEnd() }
        return exitStatus(anyFailed: anyFailed)
    }

    /// Why `line` cannot be a command, if it is not plain text (a script can hold any byte; a
    /// terminal's keys are decoded before they get here): its first control character, made
    /// visible, or its first bytes that are not UTF-8 (which reading replaced with U+FFFD, so a
    /// name would be saved altered), and the column.
    static func textProblem(in line: String) -> String? {
        let scalars = line.unicodeScalars
        guard
            let index = scalars.firstIndex(where: {
                $0.properties.generalCategory == .control || $0 == "\u{FFFD}"
            })
        else { return nil }
        let column = scalars.distance(from: scalars.startIndex, to: index) + 1
        guard scalars[index] != "\u{FFFD}" else {
            return "the command has bytes that are not UTF-8 text (or U+FFFD, which stands for "
                + "them) at column \(column); nothing was done"
        }
        let shown = String(scalars[index]).terminalSafe
        return "the command has a control character (\(shown)) at column \(column); commands are "
            + "plain text, so nothing was done"
    }

    private func showPrompt() {
        guard console.isInteractive else { return }
        if TerminalInput.canEdit {
            TerminalInput.showPrompt(prompt)
        } else {
            console.printPrompt(prompt)
        }
    }

    private func exitStatus(anyFailed: Bool) -> Int32 {
        anyFailed && !console.isInteractive ? 1 : 0
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs (and a carriage return).
    public func trimmingBlanks() -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isBlank($0) }),
            let last = lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(self[first...last])
    }

    /// Splits a command line into its first word and the rest of the line (trimmed, maybe empty).
    public func splitCommand() -> (word: String, argument: String) {
        let trimmed = trimmingBlanks()
        guard let space = trimmed.firstIndex(where: { $0 == " " || $0 == "\t" }) else {
            return (trimmed, "")
        }
        return (String(trimmed[..<space]), String(trimmed[space...]).trimmingBlanks())
    }
}
