/// One line typed into the Switches sample.
import SampleSupport

enum SwitchesCommand: Equatable {
    case press(String)
    case reset
    case show
    case help
    case quit

    /// The commands and what they do, as `help` and `--help` list them, for switches called
    /// `names`.
    static func summary(switchNames names: [String]) -> String {
        let press = names.map { $0.lowercased() }.joined(separator: ", ")
        let column = press + String(repeating: " ", count: max(1, 9 - press.count))
        return """
            \(column)press a button: its switch flips between off and on
            reset    turn every switch off; the label names the switches that were on
            show     show the screen again
            help     list these commands
            quit     leave (the end of input leaves too)
            """
    }

    /// Parses a command line; a switch's name (`a`, `b`...) presses its button.
    ///
    /// - Throws: `CommandError` naming the problem.
    init(parsing line: String, switchNames: [String]) throws(CommandError) {
        let (word, argument) = line.splitCommand()
        let command: SwitchesCommand
        switch word.lowercased() {
        case "reset": command = .reset
        case "show": command = .show
        case "help": command = .help
        case "quit", "exit": command = .quit
        case let name where switchNames.contains { $0.lowercased() == name }:
            command = .press(name.uppercased())
        default: throw .unknownCommand(word)
        }
        guard argument.isEmpty else { throw .unexpectedArgument(command: word, argument: argument) }
        self = command
    }
}
