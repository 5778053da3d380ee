// The Attractions sample: a tourist's list of attractions, edited through a delegate and kept on
// disk. This file is the composition root: it opens the store, builds the presenters and the
// screen, and feeds the user's commands to them.

import Foundation
import MVCModel
import MVCObservation
import MVCPersistence
import MVCPresenter
import MVCStore
import MVCTracing
import SampleSupport

let defaultStore = DataLocation.defaultFolder(for: "MVCLayers").appending(path: "attractions.json")

let usage = """
    USAGE: attractions [--store PATH] [--trace] [-h | --help]

    A list of attractions you can add to, edit, reorder, delete, undo and redo, kept on disk. The
    editor saves through a delegate that either adds or replaces, without knowing which
    (source post 004).

    Interactive on a terminal (a prompt and 'help'); scripted when standard input is not a terminal:
    one command per line (the rest of a line is the command's text, no quoting needed), the screen
    printed after each command that changed it, errors on standard error starting with 'error:',
    and exit status 1 if any command failed. Changes are saved a moment after they are made, and
    when the program ends.

    OPTIONS:
      --store PATH   the attractions file (default: \(defaultStore.path))
      --trace        print each hop across a layer boundary as it happens
      -h, --help     show this help

    COMMANDS:
    \(AttractionsCommand.summary)
    """

let console = Console()
let arguments = LaunchArguments.parseOrExit(
    usage: usage, knownFlags: ["--trace"], knownOptions: ["--store"], console: console)

let tracer =
    arguments.contains("--trace")
    ? HopTracer { hop in console.print("  trace: \(hop.description.terminalSafe)") } : .disabled
let storeURL: URL
do throws(UsageError) {
    storeURL = try arguments.values["--store"].map(StoreOption.url(from:)) ?? defaultStore
} catch {
    console.printError(error.message)
    console.printUsageHint(usage)
    exitProcess(usageExitStatus)
}

let store: AttractionStore
let saver: CoalescingSaver<[Attraction]>
do throws(PersistenceError) {
    (store, saver) = try await AttractionStore.open(
        at: storeURL, watchInterval: .milliseconds(500), tracer: tracer)
} catch {
    console.printError(error.description)
    exitProcess(1)
}

let list = AttractionListPresenter(store: store, tracer: tracer)
let screen = AttractionsScreen(list: list, console: console, tracer: tracer)
let session = AttractionsSession(list: list, screen: screen, console: console, tracer: tracer)

/// The greeting on a terminal (a function, so the text is not kept alive by the async main).
func greet(_ console: Console, store: URL) {
    guard console.isInteractive else { return }
    console.print(
        "Attractions, kept in \(store.path.terminalSafe). Type 'help' for the commands; arrows, Home, End and history edit the line."
    )
}
greet(console, store: storeURL)
// Ctrl-C, SIGTERM and SIGHUP write what is pending before the process ends by the signal.
let exitSignals = ExitSignals {
    do throws(PersistenceError) {
        try await saver.flush()
    } catch {
        console.printError(error.description)
    }
}

screen.render()
screen.isWaitingForCommand = true

var status = await CommandLoop(console: console).run { line in session.handle(line) }
session.cancelOpenEdit()
do throws(PersistenceError) {
    try await saver.flush()
    if case .unconfirmed(let reason) = saver.status.value {
        // Written, but a power cut could still undo it: the user should know.
        console.printError("the last save was written but not confirmed on disk: \(reason)")
        status = 1
    }
} catch {
    console.printError(error.description)
    status = 1
}
withExtendedLifetime(exitSignals) {}
exitProcess(status)
