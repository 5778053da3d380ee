// The View: draws the rows' view-state, and turns each line typed into an intent.
import Foundation

let commands = "load <row>, load all, reload <row>, add <address> <name>, help, quit"
if CommandLine.arguments.count > 1 {
    print("USAGE: avatars-essentials (post 001 alone); commands on standard input:\n\(commands)")
    exit(["-h", "--help"].contains(CommandLine.arguments[1]) ? 0 : 64)
}
let names = ["Ada Lovelace", "Grace Hopper", "Alan Turing", "Edsger Dijkstra"]
let contacts = names.map { ($0, "\($0.prefix { $0 != " " }.lowercased())@example.com") }
let manager = ModelManager(dataManager: DataManager(contacts: contacts))
let list = ContactListPresenter(manager: manager)
var anyFailed = false
@MainActor func fail(_ message: String) {
    fflush(nil)  // the screens first: screens and errors keep their order in one file
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    anyFailed = true
}
@MainActor func screen() -> String {
    let rows = list.rows.enumerated().map { index, row in
        let state = row.viewState
        let picture = state.picture.map { "avatar: \($0)" } ?? "no avatar yet"
        return "  \(index + 1). \(state.name) <\(state.address)>  [\(picture)]"
    }
    return (["Contacts"] + rows).joined(separator: "\n")
}

var drawn = screen()
print(drawn)
while let line = readLine() {
    let words = line.split(separator: " ", maxSplits: 2).map(String.init)
    guard let word = words.first, !word.hasPrefix("#") else { continue }
    let argument = words.count > 1 ? words[1] : ""
    switch word {
    case "list": drawn = ""
    case "load" where argument == "all": for row in list.rows { await row.loadTapped() }
    case "load", "reload":
        guard let number = Int(argument), number > 0, number <= list.rows.count else {
            fail("there is no contact at row \(argument): the list has \(list.rows.count)")
            continue
        }
        let row = list.rows[number - 1]
        let isCached = word == "load" && row.viewState.picture != nil
        await row.loadTapped(reload: word == "reload")
        if isCached {  // the presenter asked, and the remote manager skipped it
            print(
                "row \(number): the avatar of \(row.viewState.address) is already loaded (cached);",
                "'reload \(number)' fetches it again")
        }
    case "add" where words.count == 3: list.addTapped(address: words[1], name: words[2])
    case "help": print(commands)
    case "quit", "exit": exit(anyFailed ? 1 : 0)
    default: fail("unknown command '\(word)'; type 'help' for the list")
    }
    if screen() != drawn { print(screen()) }
    drawn = screen()
}
exit(anyFailed ? 1 : 0)
