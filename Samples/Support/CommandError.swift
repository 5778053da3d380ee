/// Why a line typed into a sample is not a command it can run; shown after `error:`.
public enum CommandError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The first word names no command.
    case unknownCommand(String)
    /// The command takes no argument, but the line has more words.
    case unexpectedArgument(command: String, argument: String)
    /// The command needs an argument the line lacks; `what` says which ("a row number").
    case missingArgument(command: String, what: String)
    /// A row (or page) number that is not a whole number from 1 up; `noun` says which it counts.
    case notANumber(String, counting: String)
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
        case .notANumber(let text, let noun):
            "'\(text)' is not a \(noun) number; \(noun)s are numbered from 1"
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

    /// The row number in `text` (rows count from 1); with `noun`, the number of something
    /// else that counts from 1 ("page").
    ///
    /// - Throws: ``missingArgument(command:what:)`` or ``notANumber(_:counting:)``.
    public static func row(_ text: String, for command: String, counting noun: String = "row")
        throws(CommandError) -> Int
    {
        guard !text.isEmpty else {
            throw .missingArgument(command: command, what: "a \(noun) number")
        }
        guard let number = Int(text), number >= 1 else { throw .notANumber(text, counting: noun) }
        return number
    }
}
