import SampleSupport

/// One line typed into the Avatars sample.
///
/// Rows count from 1, as the list shows them.
enum AvatarsCommand: Equatable {
    case list
    case load(row: Int)
    case loadAll
    case reload(row: Int)
    case cancel(row: Int)
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
        cancel <row>            give up on the request in flight for that row
        add <address> <name>    add a contact
        latency <milliseconds>  (simulated service) how long each request takes
        failure-rate <0...1>    (simulated service) the share of requests that fail
        stats                   what the connection manager did: requests, coalesced, cache-hits, failures
        help                    list these commands
        quit                    leave (the end of input leaves too)
        """

    /// Parses a command line.
    ///
    /// - Throws: `CommandError` naming the problem.
    init(parsing line: String) throws(CommandError) {
        let (word, argument) = line.splitCommand()
        switch word.lowercased() {
        case "list": self = try CommandError.bare(.list, word: word, argument: argument)
        case "load" where argument.lowercased() == "all": self = .loadAll
        case "load": self = .load(row: try CommandError.row(argument, for: word))
        case "reload": self = .reload(row: try CommandError.row(argument, for: word))
        case "cancel": self = .cancel(row: try CommandError.row(argument, for: word))
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
        case "stats": self = try CommandError.bare(.stats, word: word, argument: argument)
        case "help": self = try CommandError.bare(.help, word: word, argument: argument)
        case "quit", "exit": self = try CommandError.bare(.quit, word: word, argument: argument)
        default: throw .unknownCommand(word)
        }
    }
}
