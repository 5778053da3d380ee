import SampleSupport

/// One line typed into the Avatars sample.
///
/// Rows count from 1, as the list shows them.
enum AvatarsCommand: Equatable {
    case list
    case load(row: Int)
    case loadAll
    case reload(row: Int)
    case add(address: String, name: String)
    case latency(milliseconds: Int)
    case failureRate(Double)
    case stats
    case help
    case quit

    /// The commands and what they do, as `help` and `--help` list them.
    static let summary = """
        list                    show the contacts and their avatars
        load <row>              load the avatar of the contact in that row
        load all                load every avatar, all at once
        reload <row>            load that avatar again, even if it is cached (a retry)
        add <address> <name>    add a contact
        latency <milliseconds>  (simulated service) how long each request takes
        failure-rate <0...1>    (simulated service) the share of requests that fail
        stats                   what the connection manager did: requests, coalesced, cache-hits, failures
        help                    list these commands
        quit                    leave (the end of input leaves too)
        """

    /// Parses a command line.
    ///
    /// - Throws: ``AvatarsCommandError`` naming the problem.
    init(parsing line: String) throws(AvatarsCommandError) {
        let (word, argument) = line.splitCommand()
        switch word.lowercased() {
        case "list": self = try Self.bare(.list, word, argument)
        case "load" where argument.lowercased() == "all": self = .loadAll
        case "load": self = .load(row: try Self.row(argument, for: word))
        case "reload": self = .reload(row: try Self.row(argument, for: word))
        case "add":
            let (address, name) = argument.splitCommand()
            guard !address.isEmpty, !name.isEmpty else {
                throw .missingArgument(command: word, what: "an address and a name")
            }
            self = .add(address: address, name: name)
        case "latency":
            guard let milliseconds = Int(argument), milliseconds >= 0, milliseconds <= 60_000 else {
                throw .badNumber(
                    command: word, text: argument, expected: "milliseconds from 0 to 60000")
            }
            self = .latency(milliseconds: milliseconds)
        case "failure-rate":
            guard let rate = Double(argument), rate.isFinite, (0...1).contains(rate) else {
                throw .badNumber(command: word, text: argument, expected: "a number from 0 to 1")
            }
            self = .failureRate(rate)
        case "stats": self = try Self.bare(.stats, word, argument)
        case "help": self = try Self.bare(.help, word, argument)
        case "quit", "exit": self = try Self.bare(.quit, word, argument)
        default: throw .unknownCommand(word)
        }
    }

    private static func bare(
        _ command: AvatarsCommand,
        _ word: String,
        _ argument: String
    ) throws(AvatarsCommandError) -> AvatarsCommand {
        guard argument.isEmpty else { throw .unexpectedArgument(command: word, argument: argument) }
        return command
    }

    private static func row(_ text: String, for command: String) throws(AvatarsCommandError) -> Int
    {
        guard !text.isEmpty else { throw .missingArgument(command: command, what: "a row number") }
        guard let row = Int(text), row >= 1 else { throw .notARow(text) }
        return row
    }
}

/// Why a line is not an Avatars command.
enum AvatarsCommandError: Error, CustomStringConvertible {
    case unknownCommand(String)
    case unexpectedArgument(command: String, argument: String)
    case missingArgument(command: String, what: String)
    case notARow(String)
    case badNumber(command: String, text: String, expected: String)

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
        case .badNumber(let command, let text, let expected):
            "'\(command)' needs \(expected), not '\(text)'"
        }
    }
}
