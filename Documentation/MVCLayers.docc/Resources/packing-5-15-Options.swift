import Foundation

/// What the command line asks for: the list's file, and whether to trace each hop.
struct Options {
    static let help = """
        usage: PackingList [--file PATH] [--trace]
        commands: add NAME, new, edit ROW, pack ROW, weigh ROW, undo, redo, trip NAME, list, quit
        in the editor: a field's name and its text (name Socks, quantity 2), save, cancel
        """
    var path = "packing.json"
    init(_ arguments: [String]) {
        var arguments = arguments[...]
        while let argument = arguments.popFirst() {
            switch argument {
            case "--file" where !arguments.isEmpty: path = arguments.removeFirst()
            case "-h", "--help":
                print(Self.help)
                exit(0)
            default:
                print("error: unknown option \(argument)\n\(Self.help)")
                exit(64)
            }
        }
    }
}
