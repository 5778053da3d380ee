import MVCElements
import MVCModel
import SampleSupport

/// One line typed into the Attractions sample.
///
/// Rows count from 1, as the list shows them.
enum AttractionsCommand: Equatable {
    case list
    case add(name: String)
    case new
    case edit(row: Int)
    /// Set a field of the attraction being edited: one of `Attraction.fields`, by name.
    case field(String, text: String)
    case save
    case cancel
    case move(from: Int, to: Int)
    case delete(row: Int)
    /// Show another window of a list longer than a screenful (counting from 1).
    case page(Int)
    case undo
    case redo
    case help
    case quit

    /// The commands and what they do, as `help` and `--help` list them; the editor has a command
    /// per field the model describes.
    static var summary: String {
        let fieldCommands = Attraction.fields.map { field in
            let usage = "\(field.name) <text>"
            let column = usage + String(repeating: " ", count: max(1, 21 - usage.count))
            return "\(column)(editor) set the \(field.name); '\(field.name)' alone empties it"
        }
        return """
            list                 show the list
            add <name>           add an attraction in one step
            new                  open the editor on a new attraction
            edit <row>           open the editor on the attraction in that row
            \(fieldCommands.joined(separator: "\n"))
            save                 (editor) save the attraction and close the editor
            cancel               (editor) close the editor without saving
            move <from> <to>     move the attraction in one row to another
            delete <row>         delete the attraction in that row
            page <n>             show the n-th screenful of a long list
            undo                 undo the last change (the list shows what it would undo)
            redo                 redo what was undone
            help                 list these commands
            quit                 save and leave (the end of input does the same)
            """
    }

    /// Parses a command line; the rest of the line after the command word is its text argument.
    ///
    /// - Throws: `CommandError` naming the problem.
    init(parsing line: String) throws(CommandError) {
        let (word, argument) = line.splitCommand()
        switch word.lowercased() {
        case "list": self = try CommandError.bare(.list, word: word, argument: argument)
        case "add":
            guard !argument.isEmpty else { throw .missingArgument(command: word, what: "a name") }
            self = .add(name: argument)
        case "new": self = try CommandError.bare(.new, word: word, argument: argument)
        case "edit": self = .edit(row: try CommandError.row(argument, for: word))
        case "save": self = try CommandError.bare(.save, word: word, argument: argument)
        case "cancel": self = try CommandError.bare(.cancel, word: word, argument: argument)
        case "move":
            let parts = argument.split(separator: " ", omittingEmptySubsequences: true).map(
                String.init)
            guard parts.count == 2 else {
                throw .missingArgument(command: word, what: "two row numbers")
            }
            self = .move(
                from: try CommandError.row(parts[0], for: word),
                to: try CommandError.row(parts[1], for: word))
        case "delete": self = .delete(row: try CommandError.row(argument, for: word))
        case "page": self = .page(try CommandError.row(argument, for: word, counting: "page"))
        case "undo": self = try CommandError.bare(.undo, word: word, argument: argument)
        case "redo": self = try CommandError.bare(.redo, word: word, argument: argument)
        case "help": self = try CommandError.bare(.help, word: word, argument: argument)
        case "quit", "exit": self = try CommandError.bare(.quit, word: word, argument: argument)
        case let name
        where Attraction.fields.contains(where: { $0.name.lowercased() == name }):
            // The field's own spelling, however it was typed (a field may be camelCase).
            let field = Attraction.fields.first { $0.name.lowercased() == name }
            self = .field(field?.name ?? name, text: argument)
        default: throw .unknownCommand(word)
        }
    }
}
