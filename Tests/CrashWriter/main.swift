// A helper for StoreTests' crash tests, run until it is killed.
//
// crash-writer <file> <first state number>
//     Saves one document after another to <file>, as fast as it can. Document n holds
//     (n % 50) + 1 attractions, all named "state n", so a reader can tell a whole document from a
//     mix of two.
// crash-writer --sqlite <file> <first edit number>
//     Adds attractions named "edit n" to the SQLite database <file>, one edit at a time, and
//     prints "saved n" once the persistence says edit n is on disk: every edit it printed must
//     survive a SIGKILL.

import Foundation
import MVCModel
import MVCPersistence
import MVCSQLiteStore
import MVCStore

let arguments = Array(CommandLine.arguments.dropFirst())
let usage = """
    USAGE: crash-writer <file> <first state number>
           crash-writer --sqlite <file> <first edit number>

    Saves states (or, with --sqlite, edits) to <file> until killed.
    """

if arguments.count == 3, arguments[0] == "--sqlite", let first = Int(arguments[2]) {
    let url = URL(fileURLWithPath: arguments[1])
    do throws(PersistenceError) {
        let (store, persistence) = try await AttractionStore.openDatabase(
            at: url, pollInterval: nil)
        var edit = first
        while true {
            try? store.add(Attraction(name: "edit \(edit)"))
            try await persistence.flush()
            // Written at once, not buffered: a line is a promise the edit is on disk.
            FileHandle.standardOutput.write(Data("saved \(edit)\n".utf8))
            edit += 1
        }
    } catch {
        print("error: \(error)")
        exit(1)
    }
}

guard arguments.count == 2, let first = Int(arguments[1]) else {
    print(usage)
    exit(arguments.first == "--help" ? 0 : 64)
}
let file = DocumentFile(url: URL(fileURLWithPath: arguments[0]), format: .attractions)
var state = first
while true {
    let document = (0...(state % 50)).map { _ in
        Attraction(name: "state \(state)", notes: String(repeating: "x", count: 200))
    }
    do {
        try await file.save(document)
    } catch {
        print("error: \(error)")
        exit(1)
    }
    state += 1
}
