// A helper for StoreTests' crash test: saves one document after another to the file named on the
// command line, as fast as it can, until it is killed. Document n holds (n % 50) + 1 attractions,
// all named "state n", so a reader can tell a whole document from a mix of two.

import Foundation
import MVCModel
import MVCPersistence
import MVCStore

let arguments = CommandLine.arguments.dropFirst()
guard let path = arguments.first, arguments.count == 2, let first = Int(arguments.last ?? "") else {
    print("USAGE: crash-writer <file> <first state number>\n\nSaves states to <file> until killed.")
    exit(arguments.first == "--help" ? 0 : 64)
}

let file = DocumentFile(url: URL(fileURLWithPath: path), format: .attractions)
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
