// The View: draws the presenter's view-state, and turns each line typed into an intent.
import Foundation

let commands = """
    a, b     press a button: its switch flips between off and on
    reset    turn every switch off; the label names the switches that were on
    show     show the screen again
    help     list these commands
    quit     leave (the end of input leaves too)
    """

/// Draws the view-state once per command, and only if it changed (as UIKit's setNeedsDisplay).
@MainActor final class SwitchesView {
    private let presenter: SwitchesPresenter
    private var needsDisplay = true

    init(presenter: SwitchesPresenter) {
        self.presenter = presenter
        presenter.viewState.observe(self, action: SwitchesView.viewStateChanged)
    }

    func viewStateChanged(_ state: SwitchesViewState) { needsDisplay = true }

    func displayIfNeeded() { if needsDisplay { display() } }

    func display() {
        needsDisplay = false
        let state = presenter.viewState.value
        func button(_ name: String, _ isOn: Bool) -> String { "[\(name): \(isOn ? "on " : "off")]" }
        show("\(button("A", state.isSwitchAOn)) \(button("B", state.isSwitchBOn))  \(state.label)")
    }
}

var anyFailed = false
@MainActor func fail(_ message: String) {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    anyFailed = true
}
func show(_ text: String) { FileHandle.standardOutput.write(Data("\(text)\n".utf8)) }

if CommandLine.arguments.count > 1 {
    print("USAGE: switches-essentials\n\nPost 000's idea alone: two switches, each tied to its own")
    print("presenter method. One command per line on standard input:\n\(commands)")
    exit(["-h", "--help"].contains(CommandLine.arguments[1]) ? 0 : 64)
}
func isNotText(_ scalar: Unicode.Scalar) -> Bool {  // an escape, a bidi override, bad bytes
    [.control, .format].contains(scalar.properties.generalCategory) || scalar == "\u{FFFD}"
}
let presenter = SwitchesPresenter(model: SwitchesModel())
let view = SwitchesView(presenter: presenter)
view.display()
while let line = readLine() {
    let trimmed = line.trimmingCharacters(in: CharacterSet(charactersIn: " \t\r"))
    guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
    let word = trimmed.prefix { $0 != " " && $0 != "\t" }
    let argument = trimmed.dropFirst(word.count).trimmingCharacters(in: .whitespaces)
    if trimmed.unicodeScalars.contains(where: isNotText) {
        fail("the command is not plain text")
    } else if !["a", "b", "reset", "show", "help", "quit", "exit"].contains(word.lowercased()) {
        fail("unknown command '\(word)'; type 'help' for the list")
    } else if !argument.isEmpty {
        fail("'\(word)' takes no argument, but got '\(argument)'")
    } else {
        switch word.lowercased() {
        case "a", "b": presenter.buttonTapped(word.uppercased())
        case "reset": presenter.resetTapped()
        case "show": view.display()
        case "help": show(commands)
        default: exit(anyFailed ? 1 : 0)
        }
    }
    view.displayIfNeeded()
}
exit(anyFailed ? 1 : 0)
