// The View: draws the rows' view-state, and turns each line typed into an intent.
import Foundation

let commands = "list, load <row>, add <address> <name>, help, quit"
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
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    anyFailed = true
}
func show(_ text: String) { FileHandle.standardOutput.write(Data("\(text)\n".utf8)) }
@MainActor func screen() -> String {
    let rows = list.rows.enumerated().map { index, row in
        let state = row.viewState
        let picture = state.picture.map { "avatar: \($0)" } ?? "no avatar yet"
        return "  \(index + 1). \(state.name) <\(state.address)>  [\(picture)]"
    }
    return (["Contacts"] + rows).joined(separator: "\n")
}
func isNotText(_ scalar: Unicode.Scalar) -> Bool {  // an escape, a bidi override, bad bytes
    [.control, .format].contains(scalar.properties.generalCategory) || scalar == "\u{FFFD}"
}
var drawn = screen()
show(drawn)
while let line = readLine() {
    let words = line.split(separator: " ", maxSplits: 2).map(String.init)
    guard let word = words.first, !word.hasPrefix("#") else { continue }
    let argument = words.count > 1 ? words[1] : ""
    switch word {
    case _ where line.unicodeScalars.contains(where: isNotText):
        fail("the command is not plain text")
    case _ where ["list", "help", "quit", "exit"].contains(word) && words.count > 1:
        fail("'\(word)' takes no argument, but got '\(words.dropFirst().joined(separator: " "))'")
    case "list": drawn = ""
    case "load":
        guard let number = Int(argument), number > 0, number <= list.rows.count else {
            fail("there is no contact at row \(argument): the list has \(list.rows.count)")
            continue
        }
        let row = list.rows[number - 1]
        if row.viewState.picture != nil {  // the post's point: a cached avatar is no request
            show("row \(number): the avatar of \(row.viewState.address) is already loaded (cached)")
        }
        await row.loadTapped()
    case "add" where words.count == 3:
        do { try list.addTapped(address: words[1], name: words[2]) } catch { fail("\(error)") }
    case "help": show(commands)
    case "quit", "exit": exit(anyFailed ? 1 : 0)
    default: fail("unknown command '\(word)'; type 'help' for the list")
    }
    if screen() != drawn { show(screen()) }
    drawn = screen()
}
exit(anyFailed ? 1 : 0)
