import SampleSupport

/// One line typed into the Attractions sample.
///
/// Rows count from 1, as the list shows them.
enum AttractionsCommand: Equatable {
    case list
    case add(name: String)
    case new
    case edit(row: Int)
    case name(String)
    case notes(String)
    case save
    case cancel
    case move(from: Int, to: Int)
    case delete(row: Int)
    case undo
    case redo
    case help
    case quit

    /// The commands and what they do, as `help` and `--help` list them.
    static let summary = """
        list                 show the list
        add <name>           add an attraction in one step
        new                  open the editor on a new attraction
        edit <row>           open the editor on the attraction in that row
        name <text>          (editor) set the name
        notes <text>         (editor) set the notes; 'notes' alone clears them
        save                 (editor) save the attraction and close the editor
        cancel               (editor) close the editor without saving
        move <from> <to>     move the attraction in one row to another
        delete <row>         delete the attraction in that row
        undo                 undo the last change (the list shows what it would undo)
        redo                 redo what was undone
        help                 list these commands
        quit                 save and leave (the end of input does the same)
        """

    /// Parses a command line; the rest of the line after the command word is its text argument.
    ///
    /// - Throws: ``AttractionsCommandError`` naming the problem.
    init(parsing line: String) throws(AttractionsCommandError) {
        let (word, argument) = line.splitCommand()
        switch word.lowercased() {
        case "list": self = try Self.bare(.list, word, argument)
        case "add":
            guard !argument.isEmpty else { throw .missingArgument(command: word, what: "a name") }
            self = .add(name: argument)
        case "new": self = try Self.bare(.new, word, argument)
        case "edit": self = .edit(row: try Self.row(argument, for: word))
        case "name": self = .name(argument)
        case "notes": self = .notes(argument)
        case "save": self = try Self.bare(.save, word, argument)
        case "cancel": self = try Self.bare(.cancel, word, argument)
        case "move":
            let parts = argument.split(separator: " ", omittingEmptySubsequences: true).map(
                String.init)
            guard parts.count == 2 else {
                throw .missingArgument(command: word, what: "two row numbers")
            }
            self = .move(
                from: try Self.row(parts[0], for: word), to: try Self.row(parts[1], for: word))
        case "delete": self = .delete(row: try Self.row(argument, for: word))
        case "undo": self = try Self.bare(.undo, word, argument)
        case "redo": self = try Self.bare(.redo, word, argument)
        case "help": self = try Self.bare(.help, word, argument)
        case "quit", "exit": self = try Self.bare(.quit, word, argument)
        default: throw .unknownCommand(word)
        }
    }

    private static func bare(
        _ command: AttractionsCommand,
        _ word: String,
        _ argument: String
    ) throws(AttractionsCommandError) -> AttractionsCommand {
        guard argument.isEmpty else { throw .unexpectedArgument(command: word, argument: argument) }
        return command
    }

    private static func row(_ text: String, for command: String) throws(AttractionsCommandError)
        -> Int
    {
        guard !text.isEmpty else { throw .missingArgument(command: command, what: "a row number") }
        guard let row = Int(text), row >= 1 else { throw .notARow(text) }
        return row
    }
}

/// Why a line is not an Attractions command.
enum AttractionsCommandError: Error, CustomStringConvertible {
    /// The first word names no command.
    case unknownCommand(String)
    /// The command takes no argument, but the line has more words.
    case unexpectedArgument(command: String, argument: String)
    /// The command needs an argument the line lacks.
    case missingArgument(command: String, what: String)
    /// A row number that is not a whole number from 1 up.
    case notARow(String)

    var description: String {
        switch self {
        case .unknownCommand(let word):
            "unknown command '\(word)'; type 'help' for the list"
        case .unexpectedArgument(let command, let argument):
            "'\(command)' takes no argument, but got '\(argument)'"
        case .missingArgument(let command, let what):
            "'\(command)' needs \(what)"
        case .notARow(let text):
            "'\(text)' is not a row number; rows are numbered from 1"
        }
    }
}
