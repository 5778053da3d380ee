/// One line typed into the Switches sample.
import SampleSupport

enum SwitchesCommand: Equatable {
    case pressA
    case pressB
    case reset
    case show
    case help
    case quit

    /// The commands and what they do, as `help` and `--help` list them.
    static let summary = """
        a        press button A: switch A flips between off and on
        b        press button B: switch B flips between off and on
        reset    turn both switches off; the label names the switches that were on
        show     show the screen again
        help     list these commands
        quit     leave (the end of input leaves too)
        """

    /// Parses a command line.
    ///
    /// - Throws: `CommandError` naming the problem.
    init(parsing line: String) throws(CommandError) {
        let (word, argument) = line.splitCommand()
        let command: SwitchesCommand
        switch word.lowercased() {
        case "a": command = .pressA
        case "b": command = .pressB
        case "reset": command = .reset
        case "show": command = .show
        case "help": command = .help
        case "quit", "exit": command = .quit
        default: throw .unknownCommand(word)
        }
        guard argument.isEmpty else { throw .unexpectedArgument(command: word, argument: argument) }
        self = command
    }
}
