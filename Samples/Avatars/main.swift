// The Avatars sample: contacts with avatars, loaded by a remote connection manager behind a
// ModelManager facade, each row following only its own address's updates (source post 001).
// This file is the composition root: it picks the service, builds the managers, the presenters
// and the screen, and feeds the user's commands to them.

import Foundation
import MVCAvatarServiceLive
import MVCModel
import MVCObservation
import MVCPresenter
import MVCStore
import MVCTracing
import SampleSupport

let usage = """
    USAGE: avatars [--source URL] [--timeout SECONDS] [--max-requests N] [--trace] [-h | --help]

    Contacts with their avatars. A ModelManager facade forwards each call to the sub-manager whose
    protocol declares it; the data manager publishes keyed updates, and each row hears only its own
    address (source post 001). Pictures in the PPM format (P6 and P3) are drawn; other formats are
    shown by type and size.

    Interactive on a terminal (a prompt and 'help'; loads run in the background and rows update as
    they land); scripted when standard input is not a terminal: one command per line, each command
    finished, loads included, before the next is read; errors on standard error starting with
    'error:', and exit status 1 if any command failed.

    OPTIONS:
      --source URL   load avatars from <URL>/<address>: a folder (file:///path/) or an HTTP server
                     (such as `python3 -m http.server` on loopback). Without it, a simulated service
                     draws a picture per address.
      --timeout SECONDS
                     how long a request to --source may wait for the server, and take in all
                     (default 10); an answer larger than 4 MiB is refused either way
      --max-requests N
                     how many requests to --source may be in flight at once (default 6); the
                     others wait their turn
      --trace        print each hop across a layer boundary as it happens
      -h, --help     show this help

    COMMANDS:
    \(AvatarsCommand.summary)
    """

// Everything lives inside run(), so that it is all released before the process exits and
// LeakSanitizer sees no object left behind.
@MainActor
func run() async -> Int32 {
    let console = Console()
    let arguments = LaunchArguments.parseOrExit(
        usage: usage, knownFlags: ["--trace"],
        knownOptions: ["--source", "--timeout", "--max-requests"],
        console: console)
    let tracer =
        arguments.contains("--trace")
        ? HopTracer { hop in console.print("  trace: \(hop.description.terminalSafe)") } : .disabled

    let service: any AvatarService
    let simulator: SimulatedAvatarService?
    var timeout = Duration.seconds(10)
    if let text = arguments.values["--timeout"] {
        guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 3_600 else {
            console.printError("--timeout needs a number of seconds from 0 to 3600, not '\(text)'")
            exitProcess(usageExitStatus)
        }
        timeout = .seconds(seconds)
    }
    var maximumRequests = LiveAvatarService.defaultMaximumConcurrentRequests
    if let text = arguments.values["--max-requests"] {
        guard let count = Int(text), (1...1_000).contains(count) else {
            console.printError("--max-requests needs a number from 1 to 1000, not '\(text)'")
            exitProcess(usageExitStatus)
        }
        maximumRequests = count
    }
    if let source = arguments.values["--source"] {
        guard let url = URL(string: source), let scheme = url.scheme,
            ["file", "http", "https"].contains(scheme)
        else {
            console.printError("--source needs a file://, http:// or https:// URL, not '\(source)'")
            exitProcess(usageExitStatus)
        }
        service = LiveAvatarService(
            baseURL: url, timeout: timeout, maximumConcurrentRequests: maximumRequests)
        simulator = nil
    } else {
        if let option = ["--timeout", "--max-requests"].first(where: { arguments.values[$0] != nil }
        ) {
            console.printError("\(option) applies to --source, which was not given")
            exitProcess(usageExitStatus)
        }
        let simulated = SimulatedAvatarService(latency: .milliseconds(150))
        service = simulated
        simulator = simulated
    }

    let starters = [
        ("Ada Lovelace", "ada@example.com"), ("Grace Hopper", "grace@example.com"),
        ("Alan Turing", "alan@example.com"), ("Edsger Dijkstra", "edsger@example.com"),
    ]
    let contacts = starters.compactMap { name, address in
        (try? EmailAddress(address)).map { Contact(name: name, address: $0) }
    }
    let manager = ModelManager(contacts: contacts, service: service, tracer: tracer)
    let list = ContactListPresenter(manager: manager, tracer: tracer)
    let prompt = "> "
    let screen = AvatarsScreen(list: list, console: console, tracer: tracer)
    let session = AvatarsSession(
        list: list, manager: manager, simulator: simulator, screen: screen, console: console,
        tracer: tracer)

    greet(console, source: arguments.values["--source"])
    screen.render()
    let status = await CommandLoop(console: console, prompt: prompt).run { line in
        await session.handle(line)
    }
    return status
}

exitProcess(await run())

/// The greeting on a terminal (a function, so the text is not kept alive by the async main).
func greet(_ console: Console, source: String?) {
    guard console.isInteractive else { return }
    console.print(
        "Avatars, from \((source ?? "a simulated service").terminalSafe). Type 'help' for the commands; arrows, Home, End and history edit the line."
    )
}
