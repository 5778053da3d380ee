/// Why a line typed into a sample is not a command it can run; shown after `error:`.
public enum CommandError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The first word names no command.
    case unknownCommand(String)
    /// The command takes no argument, but the line has more words.
    case unexpectedArgument(command: String, argument: String)
    /// The command needs an argument the line lacks; `what` says which ("a row number").
    case missingArgument(command: String, what: String)
    /// A row number that is not a whole number from 1 up.
    case notARow(String)
    /// A number that is not one, or out of range; `expected` says what would do.
    case badNumber(command: String, text: String, expected: String)

    /// A sentence a user can act on.
    public var description: String {
        switch self {
        case .unknownCommand(let word):
            "unknown command '\(word)'; type 'help' for the list"
        case .unexpectedArgument(let command, let argument):
            "'\(command)' takes no argument, but got '\(argument)'"
        case .missingArgument(let command, let what):
            "'\(command)' needs \(what)"
        case .notARow(let text):
            "'\(text)' is not a row number; rows are numbered from 1"
        case .badNumber(let command, let text, let expected):
            "'\(command)' needs \(expected), not '\(text)'"
        }
    }

    /// Returns `command` if the line had no argument for it.
    ///
    /// - Throws: ``unexpectedArgument(command:argument:)`` otherwise.
    public static func bare<Command>(_ command: Command, word: String, argument: String)
        throws(CommandError) -> Command
    {
        guard argument.isEmpty else { throw .unexpectedArgument(command: word, argument: argument) }
        return command
    }

    /// The row number in `text` (rows count from 1).
    ///
    /// - Throws: ``missingArgument(command:what:)`` or ``notARow(_:)``.
    public static func row(_ text: String, for command: String) throws(CommandError) -> Int {
        guard !text.isEmpty else { throw .missingArgument(command: command, what: "a row number") }
        guard let row = Int(text), row >= 1 else { throw .notARow(text) }
        return row
    }
}
