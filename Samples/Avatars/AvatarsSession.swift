import MVCObservation
import MVCPresenter
import MVCStore
import MVCTracing
import SampleSupport

/// Carries out the user's commands against the contact list presenter.
///
/// In a script each command finishes, loads included, before the next line is read, so the output
/// is the same on every run; interactively, loads start in the background and rows update as they
/// land.
@MainActor
final class AvatarsSession {
    private let list: ContactListPresenter
    private let manager: ModelManager
    private let simulator: SimulatedAvatarService?
    private let screen: AvatarsScreen
    private let console: Console
    private let tracer: HopTracer

    init(
        list: ContactListPresenter,
        manager: ModelManager,
        simulator: SimulatedAvatarService?,
        screen: AvatarsScreen,
        console: Console,
        tracer: HopTracer
    ) {
        self.list = list
        self.manager = manager
        self.simulator = simulator
        self.screen = screen
        self.console = console
        self.tracer = tracer
    }

    /// Performs one command line.
    func handle(_ line: String) async -> CommandOutcome {
        let command: AvatarsCommand
        do throws(CommandError) {
            command = try AvatarsCommand(parsing: line)
        } catch {
            return .failed(error.description)
        }
        let outcome = await perform(command)
        if !console.isInteractive { screen.renderIfNeeded() }
        return outcome
    }

    private func perform(_ command: AvatarsCommand) async -> CommandOutcome {
        switch command {
        case .list:
            screen.render()
        case .load(let row), .reload(let row):
            guard let avatar = list.avatarPresenter(at: row - 1) else { return failure() }
            let isReload = if case .reload = command { true } else { false }
            let wasCached = if case .loaded = avatar.viewState.status { !isReload } else { false }
            // Nothing to fetch (the request is a cache hit): said after the request's hops, cause
            // before effect, instead of a silence that looks like a failure.
            defer {
                if wasCached {
                    console.print(
                        "row \(row): the avatar of \(avatar.viewState.address.terminalSafe) is already loaded (cached); 'reload \(row)' fetches it again"
                    )
                }
            }
            tracer.record(
                from: .view, to: .presenter,
                // The method that runs: a script waits for each load, a terminal does not.
                "row \(row): \(isReload ? "reload" : console.isInteractive ? "loadTapped" : "load")()"
            )
            if console.isInteractive {
                if isReload { Task { await avatar.reload() } } else { avatar.loadTapped() }
            } else if isReload {
                await avatar.reload()
            } else {
                await avatar.load()
            }
        case .cancel(let row):
            guard let avatar = list.avatarPresenter(at: row - 1) else { return failure() }
            // Nothing in flight: said, as a load of a cached avatar is.
            guard avatar.viewState.status == .loading else {
                console.print(
                    "row \(row): no request for the avatar of \(avatar.viewState.address.terminalSafe) is in flight; nothing to cancel"
                )
                return .succeeded
            }
            tracer.record(from: .view, to: .presenter, "row \(row): cancelTapped()")
            avatar.cancelTapped()
        case .loadAll:
            tracer.record(
                from: .view, to: .presenter, console.isInteractive ? "loadAllTapped()" : "loadAll()"
            )
            if console.isInteractive { list.loadAllTapped() } else { await list.loadAll() }
        case .add(let address, let name):
            tracer.record(
                from: .view, to: .presenter, "addTapped(address: \(address), name: \(name))")
            guard list.addTapped(address: address, name: name) else { return failure() }
        case .latency(let milliseconds):
            guard let simulator else {
                return .failed("'latency' applies to the simulated service only")
            }
            await simulator.setLatency(.milliseconds(milliseconds))
        case .failureRate(let rate):
            guard let simulator else {
                return .failed("'failure-rate' applies to the simulated service only")
            }
            await simulator.setFailureRate(rate)
        case .stats:
            for line in Self.lines(for: manager.statistics) { console.print(line) }
        case .help:
            console.print(AvatarsCommand.summary)
        case .quit:
            return .quit
        }
        return .succeeded
    }

    /// The counters as `name: value` lines, in a fixed order: formatting for this terminal, so
    /// it lives with the View, not in the store.
    static func lines(for statistics: RequestStatistics) -> [String] {
        [
            "requests: \(statistics.requests)", "coalesced: \(statistics.coalesced)",
            "cache-hits: \(statistics.cacheHits)", "failures: \(statistics.failures)",
        ]
    }

    private func failure() -> CommandOutcome {
        .failed(list.viewState.lastError ?? "the command failed")
    }
}
