// The Attractions sample: a tourist's list of attractions, edited through a delegate and kept on
// disk. This file is the composition root: it opens the store, builds the presenters and the
// screen, and feeds the user's commands to them.

import Foundation
import MVCDocumentStore
import MVCElements
import MVCListStore
import MVCModel
import MVCObservation
import MVCPresenter
import MVCStore
import MVCTracing
import SampleSupport

let defaultStore = DataLocation.defaultFolder(for: "MVCLayers").appending(path: "attractions.json")

let usage = """
    USAGE: attractions [--store PATH] [--convert PATH] [--trace] [-h | --help]

    A list of attractions you can add to, edit, reorder, delete, undo and redo, kept on disk. The
    editor saves through a delegate that either adds or replaces, without knowing which
    (source post 004).

    Interactive on a terminal (a prompt and 'help'); scripted when standard input is not a terminal:
    one command per line (the rest of a line is the command's text, no quoting needed), the screen
    printed after each command that changed it, errors on standard error starting with 'error:',
    and exit status 1 if any command failed. Changes are saved a moment after they are made, and
    when the program ends; on a terminal the list says '(not saved yet)' until they are, and in a
    script each command's changes are saved before its screen is printed.

    The file's extension picks how the list is kept: '.sqlite' (or '.sqlite3', '.db') keeps it in
    an SQLite database, a row per attraction, each edit written at once, which suits a long list;
    anything else keeps it in a JSON document, rewritten whole after each burst of edits. A
    'postgres://user@host/database#table' URL keeps it in a PostgreSQL table (default table:
    attractions), shared with every machine that reaches the server; the password comes from the
    URL, PGPASSWORD or ~/.pgpass, and is never printed. The screens are the same either way. A
    long list is shown a screenful at a time, around the row last changed ('page <n>' shows
    another).

    A name is at most \(AttractionRules.maximumNameLength) characters, notes at most \(AttractionRules.maximumNotesLength); neither may hold a
    control character.

    OPTIONS:
      --store PATH     the attractions file, or a postgres:// URL
                       (default: \(defaultStore.path))
      --convert PATH   copy the list in --store into a new file at PATH, in the format PATH's
                       extension names, and exit (an existing PATH is never replaced)
      --trace          print each hop across a layer boundary as it happens
      -h, --help       show this help

    COMMANDS:
    \(AttractionsCommand.summary)
    """

let console = Console()
let arguments = LaunchArguments.parseOrExit(
    usage: usage, knownFlags: ["--trace"], knownOptions: ["--store", "--convert"],
    console: console)

let tracer =
    arguments.contains("--trace")
    ? HopTracer { hop in console.print("  trace: \(hop.description.terminalSafe)") } : .disabled
let storeURL: URL
let convertURL: URL?
do throws(UsageError) {
    // Paths are built from these bytes too: taken as given, or refused, as an argument's.
    let given = [arguments.values["--store"], arguments.values["--convert"]].compactMap { $0 }
    // The default location is under $XDG_DATA_HOME if that is an absolute path, else $HOME.
    let dataHome = getenv("XDG_DATA_HOME").map { $0.pointee == UInt8(ascii: "/") } == true
    try checkPathBytes(
        environment: arguments.values["--store"] != nil
            ? [] : [dataHome ? "XDG_DATA_HOME" : "HOME"],
        currentFolder: given.contains { !$0.hasPrefix("/") })
    storeURL =
        try arguments.values["--store"].map { (text) throws(UsageError) in
            try StoreOption.url(from: text, option: "--store")
        } ?? defaultStore
    convertURL = try arguments.values["--convert"].map { (text) throws(UsageError) in
        try StoreOption.url(from: text, option: "--convert")
    }
} catch {
    console.printError(error.message)
    console.printUsageHint(usage)
    exitProcess(usageExitStatus)
}

if let convertURL {
    do throws(PersistenceError) {
        let count = try await OpenedStore.convert(storeURL, to: convertURL)
        console.print(
            "Copied \(Attraction.counted(count)) into \(OpenedStore.shown(convertURL).terminalSafe), \(OpenedStore.Format(of: convertURL).name)."
        )
        exitProcess(0)
    } catch {
        console.printError(error.description)
        exitProcess(1)
    }
}

let opened: OpenedStore
do throws(PersistenceError) {
    opened = try await OpenedStore.open(storeURL, tracer: tracer)
} catch {
    console.printError(error.description)
    exitProcess(1)
}
let store = opened.store

let list = AttractionListPresenter(store: store, tracer: tracer)
let screen = AttractionsScreen(list: list, console: console, tracer: tracer)
let session = AttractionsSession(
    list: list, screen: screen, console: console, tracer: tracer,
    settle: { _ = await opened.flush() })

/// The greeting on a terminal (a function, so the text is not kept alive by the async main).
@MainActor
func greet(_ console: Console, store: URL) {
    guard console.isInteractive else { return }
    console.print(
        "Attractions, kept in \(OpenedStore.shown(store).terminalSafe). Type 'help' for the commands; arrows, Home, End and history edit the line."
    )
}
greet(console, store: storeURL)
// Ctrl-C, SIGTERM and SIGHUP end as `quit` does (what is pending written, a document another
// program made unreadable written beside it, a locked database waited for), then by the signal.
let exitSignals = ExitSignals {
    let problem = await opened.finish()
    screen.renderIfNeeded()  // a notice the ending raised
    if let problem { console.printError(problem) }
}

screen.render()
screen.isWaitingForCommand = true

var status = await CommandLoop(console: console).run { line in await session.handle(line) }
session.cancelOpenEdit()
if let problem = await opened.finish() {
    console.printError(problem)
    status = 1
}
withExtendedLifetime(exitSignals) {}
// A signal that came while the list was written ends the process by that signal.
await Task.yield()
if ExitSignals.isEnding { await ExitSignals.waitForTheEnd() }
exitProcess(status)
