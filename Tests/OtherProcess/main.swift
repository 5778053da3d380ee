// Another program on StoreTests' files: a second process, never a second store in the test's own.
//
// other-process --edit <file> [<save delay ms> <watch interval ms>]
//     Opens the list at <file> and edits it as its standard input says (see ListEditor.swift);
//     by default a document is saved 20 ms after an edit, and either format looks for other
//     processes' saves every 100 ms (a watch interval of 0: never).
// other-process <file> <first state number>
//     Saves one document after another to <file>, as fast as it can. Document n holds
//     (n % 50) + 1 attractions, all named "state n", so a reader can tell a whole document from a
//     mix of two.
// other-process --sqlite <file> <first edit number>
// other-process --postgres <postgres:// URL#table> <first edit number>
//     Adds attractions named "edit n" to the SQLite database <file> (or the PostgreSQL table),
//     one edit at a time, and prints "saved n" once the persistence says edit n is on disk (or
//     committed): every edit it printed must survive a SIGKILL.
// other-process --ids-without-descriptors
//     Opens /dev/null until no file descriptor is left, then prints two new attraction ids, one a
//     line: each must be random, though nothing more can be opened.
// other-process --saves-beside-locks <folder> <count>
//     Starts <count> saves of the documents d0.json ... in <folder>, whose locks another process
//     holds; then prints "pool free" from a task of the cooperative pool, and, once every save
//     has ended, "saved <count>" or the first save's error. A save that held a pool thread while
//     it waited for its lock would keep that line back until the lock's patience ran out.

import AttractionsStorage
import Foundation
import MVCDocumentStore
import MVCListStore
import MVCModel
import MVCPostgresStore
import MVCSQLiteStore
import MVCStore

let arguments = Array(CommandLine.arguments.dropFirst())
/// The test that started this process: a writer that runs "until killed" ends by itself once that
/// test is gone (a test that failed, or was stopped, before its kill), rather than loading the
/// machine for every test after it.
let parent = getppid()
func endIfOrphaned() { if getppid() != parent { exit(0) } }
let usage = """
    USAGE: other-process --edit <file> [<save delay ms> <watch interval ms>]
           other-process <file> <first state number>
           other-process --sqlite <file> <first edit number>
           other-process --postgres <postgres:// URL#table> <first edit number>
           other-process --saves-beside-locks <folder> <count>
           other-process --ids-without-descriptors

    Edits the list at <file> as standard input says; saves states (or, with --sqlite, edits) to
    <file> until killed; or saves <count> documents in <folder> while another process holds their
    locks, saying when the pool runs a task.
    """

if arguments.count == 2 || arguments.count == 4, arguments[0] == "--edit" {
    let numbers = arguments.dropFirst(2).compactMap { Int($0) }
    let (delay, watch) = numbers.count == 2 ? (numbers[0], numbers[1]) : (20, 100)
    // A server's list is named by its URL, a file's by its path.
    let url =
        PostgresLocation.names(arguments[1])
        ? URL(string: arguments[1]) : URL(fileURLWithPath: arguments[1])
    await editList(
        at: url ?? URL(fileURLWithPath: arguments[1]), delay: .milliseconds(delay),
        watch: watch > 0 ? .milliseconds(watch) : nil)
}

if arguments == ["--ids-without-descriptors"] {
    #if canImport(Glibc)
        let descriptors = Int32(RLIMIT_NOFILE.rawValue)
    #else
        let descriptors = RLIMIT_NOFILE
    #endif
    // A low limit first, so that running out is quick.
    var limit = rlimit()
    _ = getrlimit(descriptors, &limit)
    limit.rlim_cur = min(limit.rlim_cur, 64)
    _ = setrlimit(descriptors, &limit)
    while open("/dev/null", O_RDONLY) >= 0 {}
    let reason = errno
    print(Attraction.ID().description)
    print(Attraction.ID().description)
    exit(reason == EMFILE ? 0 : 1)
}

if arguments.count == 3, arguments[0] == "--saves-beside-locks", let count = Int(arguments[2]) {
    let folder = URL(fileURLWithPath: arguments[1])
    let saves = (0..<count).map { index in
        Task.detached {
            let file = DocumentFile(
                url: folder.appending(path: "d\(index).json"), format: .attractions)
            try await file.overwrite(with: [Attraction(name: "row")])
        }
    }
    // Queued behind every save: it runs while they wait only if none holds a thread.
    await Task.detached {
        FileHandle.standardOutput.write(Data("pool free\n".utf8))
    }.value
    do {
        for save in saves { try await save.value }
        print("saved \(count)")
        exit(0)
    } catch {
        print("error: \(error)")
        exit(1)
    }
}

if arguments.count == 3, ["--sqlite", "--postgres"].contains(arguments[0]),
    let first = Int(arguments[2])
{
    do throws(PersistenceError) {
        let store: AttractionStore
        let flush: () async throws(PersistenceError) -> Void
        if arguments[0] == "--sqlite" {
            let (opened, persistence) = try await AttractionStore.openDatabase(
                at: URL(fileURLWithPath: arguments[1]), pollInterval: nil)
            (store, flush) = (opened, persistence.flush)
        } else {
            let (opened, persistence) = try await AttractionStore.openTable(
                at: PostgresLocation(arguments[1]), listening: false)
            keepUntilExit(persistence)
            (store, flush) = (opened, persistence.flush)
        }
        var edit = first
        while true {
            endIfOrphaned()
            try? store.add(Attraction(name: "edit \(edit)"))
            try await flush()
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
    endIfOrphaned()
    let document = (0...(state % 50)).map { _ in
        Attraction(name: "state \(state)", notes: String(repeating: "x", count: 200))
    }
    do {
        try await file.overwrite(with: document)
    } catch {
        print("error: \(error)")
        exit(1)
    }
    state += 1
}
