// The View: draws the list or the open editor, and turns each line typed into an intent.
import Foundation

// Kept per user, beside the production sample's list (~/.local/share/MVCLayers), never in the
// folder the program is run from.
let environment = ProcessInfo.processInfo.environment
let folder = (environment["XDG_DATA_HOME"] ?? NSHomeDirectory() + "/.local/share") + "/MVCLayers"
let commands =
    "add <name>, new, edit <row>, name <text>, notes <text>, save, cancel, move <from> <to>, "
    + "delete <row>, help, quit (PATH is \(folder)/attractions-essentials.json unless given)"
let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.isEmpty || (arguments.count == 2 && arguments[0] == "--store") else {
    print("USAGE: attractions-essentials [--store PATH] (post 004 alone)\n\(commands)")
    exit(["-h", "--help"].contains(arguments[0]) ? 0 : 64)
}
if arguments.isEmpty {
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
}
let path = arguments.last ?? folder + "/attractions-essentials.json"
var anyFailed = false
@MainActor func fail(_ message: String) {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    anyFailed = true
}
func show(_ text: String) { FileHandle.standardOutput.write(Data("\(text)\n".utf8)) }
let store: AttractionStore
do {
    store = try AttractionStore(file: URL(fileURLWithPath: path))
    for attraction in store.attractions { try checkPlainText(attraction.name + attraction.notes) }
} catch {
    fail("cannot read attractions from \(path): \(error)")
    exit(1)
}
var editor: AttractionEditor?
@MainActor func screen() -> String {
    guard let editor else {
        let rows = store.attractions.enumerated().map { index, row in
            "  \(index + 1). \(row.name)\(row.notes.isEmpty ? "" : " — \(row.notes)")"
        }
        return (["Attractions"] + (rows.isEmpty ? ["  No attractions yet."] : rows))
            .joined(separator: "\n")
    }
    let (name, notes) = (editor.draft.name, editor.draft.notes)
    return [
        "Editing an attraction (name, notes, then save or cancel)",
        "  name:  \(name.isEmpty ? "(empty)" : name)", editor.problem.map { "         ! \($0)" },
        "  notes: \(notes.isEmpty ? "(empty)" : notes)",
        "  [\(editor.problem == nil ? "save" : "save: not yet")]  [cancel]",
    ].compactMap { $0 }.joined(separator: "\n")
}
func checkPlainText(_ line: String) throws {  // an escape, a bidi override: not shown raw
    for scalar in line.unicodeScalars
    where [.control, .format].contains(scalar.properties.generalCategory) || scalar == "\u{FFFD}" {
        throw Refusal(description: "U+\(String(scalar.value, radix: 16)) is not plain text")
    }
}
func row(_ text: some StringProtocol) throws -> Int {
    if let number = Int(text), number >= 1 { return number - 1 }
    throw Refusal(description: "'\(text)' is not a row number; rows are numbered from 1")
}
@MainActor func quit() -> Never {  // an open edit is dropped, and said to be
    if editor != nil { show("(the open edit was not saved)") }
    exit(anyFailed ? 1 : 0)
}
var drawn = screen()
show(drawn)
while let line = readLine() {
    let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
    let word = String(trimmed.prefix { $0 != " " })
    let argument = trimmed.dropFirst(word.count).trimmingCharacters(in: .whitespaces)
    do {
        try checkPlainText(trimmed)
        if ["new", "save", "cancel", "help", "quit"].contains(word), !argument.isEmpty {
            throw Refusal(description: "'\(word)' takes no argument, but got '\(argument)'")
        }
        switch (word, editor) {
        // The list screen picks the delegate, create or edit; the editor never learns which.
        case ("add", nil):  // a new attraction in one step: the create delegate, editor unseen
            guard !argument.isEmpty else { throw Refusal(description: "'add' needs a name") }
            let adding = AttractionEditor(
                draft: Attraction(name: ""), delegate: CreateAttractionDelegate(store: store))
            adding.nameChanged(to: argument)
            try adding.saveTapped()
        case ("new", nil):
            editor = AttractionEditor(
                draft: Attraction(name: ""), delegate: CreateAttractionDelegate(store: store))
        case ("edit", nil):
            let original = store.attractions[try store.check(row(argument))]
            editor = AttractionEditor(
                draft: original, delegate: EditAttractionDelegate(store: store))
        case ("move", nil):
            let rows = argument.split(separator: " ")
            guard rows.count == 2 else { throw Refusal(description: "'move' needs two rows") }
            try store.move(from: row(rows[0]), to: row(rows[1]))
        case ("delete", nil): try store.remove(at: row(argument))
        case ("name", let editor?): editor.nameChanged(to: argument)
        case ("notes", let editor?): editor.notesChanged(to: argument)
        case ("cancel", let open?):
            open.cancelTapped()
            editor = nil
        case ("save", let open?):
            do { try open.saveTapped() } catch { throw Refusal(description: "not saved: \(error)") }
            editor = nil
        case ("help", _): show(commands)
        case ("quit", _): quit()
        case ("name", nil), ("notes", nil), ("save", nil), ("cancel", nil):
            throw Refusal(description: "no editor is open; use 'new' or 'edit <row>' first")
        case ("add", _?), ("new", _?), ("edit", _?), ("move", _?), ("delete", _?):
            throw Refusal(description: "an editor is open; 'save' or 'cancel' it first")
        default: throw Refusal(description: "unknown command '\(word)'; type 'help' for the list")
        }
    } catch {
        fail("\(error)")
    }
    if screen() != drawn { show(screen()) }
    drawn = screen()
}
quit()
