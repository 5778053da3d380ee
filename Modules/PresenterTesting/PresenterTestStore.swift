import MVCObservation
public import MVCPresenter
import Synchronization
public import Testing

/// Drives a presenter step by step and asserts every view-state it publishes, exhaustively.
///
/// Each step sends an intent, then writes each state it must lead to as a change to the
/// previous state, the way TCA's `TestStore` made familiar:
///
/// ```swift
/// let store = PresenterTestStore(SwitchesPresenter(model: SwitchesModel()))
/// store.send { $0.buttonTapped("A") }
/// store.expect {
///     $0.buttons[0].isOn = true
///     $0.label = "Switch A turned on."
/// }
/// await store.finish()
/// ```
///
/// A step fails, with a line-by-line diff, when the state differs from the expected one. The
/// store fails too when a state was published and not asserted (by
/// ``expect(sourceLocation:_:)``, ``receive(sourceLocation:_:)`` or ``skipStates(_:sourceLocation:)``)
/// before the next intent or the end, and when ``finish(sourceLocation:)`` finds work still
/// running. Nothing published slips through unseen: `finish()` first waits for the presenter's
/// tracked work to end (a result that hops back through another queue included), so what that
/// work publishes is reported at the test; only what untracked work publishes after it (or in a
/// test that never calls it) is left to the store's release.
///
/// Failures are reported as Swift Testing issues at the step's source location; one found when
/// the store is released, at the last step (or where the store was made). Release a store in the
/// test that made it: one a detached task or a global keeps past that test reports against the
/// run, naming the test, and one kept past the whole run cannot report at all.
@MainActor
public final class PresenterTestStore<Presenter: ViewStatePresenter> {
    /// The presenter under test.
    public let presenter: Presenter
    /// The state the last step asserted (at first, the presenter's state when the store began).
    public private(set) var state: Presenter.ViewState
    private var received: [Presenter.ViewState] = []
    private var token: ObservationToken?
    private let isBusy: (@MainActor () -> Bool)?
    private let patience: Duration
    /// Where the last step was written (at first, where the store was made): a failure found
    /// when the store is released is reported there.
    private var lastStep: SourceLocation
    /// The test that made the store, to name when the store outlives it.
    private let madeIn: (id: Test.ID, name: String)?

    /// Starts recording `presenter`'s view-states.
    ///
    /// - Parameters:
    ///   - presenter: The presenter to drive.
    ///   - isBusy: Whether work the presenter started is still running (a load in flight, say);
    ///     ``finish(sourceLocation:)`` fails while it says so. By default, the presenter's own
    ///     `hasPendingWork`.
    ///   - patience: How long a step waits for the presenter's work to end before it says the work
    ///     is still running: far more than any presenter's work in a test needs, by default, even
    ///     under a sanitizer. The work's end is what a step waits for, not this long.
    ///   - sourceLocation: Where a failure found when the store is released is reported, until
    ///     a step is written.
    public init(
        _ presenter: Presenter, isBusy: (@MainActor () -> Bool)? = nil,
        patience: Duration = .seconds(60),
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        self.presenter = presenter
        self.state = presenter.viewState
        self.isBusy = isBusy
        self.patience = patience
        self.lastStep = sourceLocation
        self.madeIn = Test.current.map { ($0.id, $0.displayName ?? $0.name) }
        self.token = presenter.observeViewState { [weak self] state in
            self?.received.append(state)
        }
    }

    // Not `isolated deinit`: the 6.3 compiler crashes lowering an isolated deinit of this generic
    // class in a coverage build. What it reads is Sendable, so a plain deinit may read it.
    //
    // Released outside the test that made it (kept by a detached task or a global past the test's
    // end), the store cannot report to that test: Swift Testing then counts the issue against the
    // run, not a test, and the message names the test that made the store. Released after the
    // whole run has ended, it is not reported at all: release a store in its test.
    deinit {
        guard let first = received.first else { return }
        let outlived =
            madeIn.map { made in
                Test.current?.id == made.id
                    ? "" : "this store outlived the test that made it, “\(made.name)”: "
            } ?? ""
        Issue.record(
            Comment(
                rawValue:
                    outlived + "\(received.count) state(s) were published after the last step "
                    + "and never asserted; the first differs from the last asserted one by:\n"
                    + Self.diff(from: state, to: first)),
            sourceLocation: lastStep)
    }

    /// Runs an intent; the states it publishes must then be asserted with ``expect(sourceLocation:_:)``.
    ///
    /// A state published before this step and not yet asserted fails the step: each intent's
    /// states are accounted for before the next intent runs.
    ///
    /// - Parameters:
    ///   - sourceLocation: Where a failure is reported.
    ///   - intent: Calls the presenter's intent.
    /// - Returns: What the intent returned.
    @discardableResult
    public func send<Result>(
        sourceLocation: SourceLocation = #_sourceLocation,
        _ intent: (Presenter) throws -> Result
    ) rethrows -> Result {
        lastStep = sourceLocation
        if !received.isEmpty {
            fail(
                "\(received.count) state(s) were published before this step and never asserted; "
                    + "the first differs from the last asserted one by:\n"
                    + Self.diff(from: state, to: received[0]), sourceLocation)
            state = received[received.count - 1]
            received.removeAll()
        }
        return try intent(presenter)
    }

    /// Asserts the next state already published: the previous state changed by `expected`.
    ///
    /// - Parameters:
    ///   - sourceLocation: Where a failure is reported.
    ///   - expected: Changes the previous state into the one that must have been published next.
    public func expect(
        sourceLocation: SourceLocation = #_sourceLocation,
        _ expected: (inout Presenter.ViewState) -> Void
    ) {
        takeOne(expected, sourceLocation)
    }

    /// Asserts the next state published by work that ran on its own (a store update, a load
    /// finishing), waiting for it if it has not arrived yet.
    ///
    /// It waits on the presenter's own work, not on the clock: when no state has arrived, it
    /// waits until the presenter's pending work has finished (its `pendingWorkFinished()`), then
    /// lets the main actor run what is already scheduled on it (a bounded number of turns, not a
    /// duration). If no state has arrived by then, none is coming, and the step fails, however
    /// fast or slow the machine.
    ///
    /// - Parameters:
    ///   - sourceLocation: Where a failure is reported.
    ///   - expected: Changes the previous state into the one that must arrive next.
    public func receive(
        sourceLocation: SourceLocation = #_sourceLocation,
        _ expected: (inout Presenter.ViewState) -> Void
    ) async {
        lastStep = sourceLocation
        if received.isEmpty { await settle(untilAState: true) }
        if received.isEmpty, isWorking {
            fail(
                "no state was published: work the presenter started was still running after \(patience)",
                sourceLocation)
            return
        }
        guard !received.isEmpty else {
            fail(
                "no state was published: the presenter's work has finished and the main actor "
                    + "has nothing left to run", sourceLocation)
            return
        }
        takeOne(expected, sourceLocation)
    }

    /// How many times the store lets the main actor run scheduled jobs while it waits.
    private static var turnsToSettle: Int { 100 }

    /// Whether the presenter's tracked work is still running.
    private var isWorking: Bool { isBusy?() ?? presenter.hasPendingWork }

    /// Waits until the presenter's tracked work has ended, however it ends.
    ///
    /// A result that hops back through another queue included: not a number of turns, but for as
    /// long as the work says it is running, up to the store's patience; fewer if `untilAState` and a state arrives. Then
    /// lets the main actor run what is already scheduled on it (a task an intent started).
    private func settle(untilAState: Bool) async {
        let deadline = ContinuousClock.now + patience
        await workFinished(by: deadline)
        while isWorking, !(untilAState && !received.isEmpty), ContinuousClock.now < deadline {
            await workFinished(by: deadline)
            try? await Task.sleep(for: .milliseconds(1))
        }
        var turns = 0
        while !(untilAState && !received.isEmpty) && turns < Self.turnsToSettle {
            await Task.yield()
            turns += 1
        }
    }

    /// Returns once the presenter's `pendingWorkFinished()` does, or at `deadline`, whichever is
    /// first: work that never ends (a service that never answers) fails the step, never hangs it.
    private func workFinished(by deadline: ContinuousClock.Instant) async {
        let presenter = presenter
        // An atomic, not a `Mutex`: the thread sanitizer cannot follow a contended `Mutex` on Linux.
        let first = Atomic(true)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeOnce = { @Sendable in
                let isFirst = first.compareExchange(
                    expected: true, desired: false, ordering: .acquiringAndReleasing
                ).exchanged
                if isFirst { continuation.resume() }
            }
            let timer = Task {
                try? await Task.sleep(until: deadline)
                resumeOnce()
            }
            Task { @MainActor in
                await presenter.pendingWorkFinished()
                timer.cancel()
                resumeOnce()
            }
        }
    }

    /// Accepts the states published so far without asserting them, keeping the last as the state
    /// the next step changes; for steps whose in-between states the test does not care about.
    ///
    /// Asking for more states than were published, or fewer than none, fails the step (and
    /// accepts none).
    ///
    /// - Parameters:
    ///   - count: How many states to accept; all of them when `nil`.
    ///   - sourceLocation: Where a failure is reported.
    public func skipStates(_ count: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        lastStep = sourceLocation
        let taking = count ?? received.count
        guard (0...received.count).contains(taking) else {
            fail(
                "asked to skip \(taking) state(s), but \(received.count) were published since the "
                    + "last step", sourceLocation)
            return
        }
        guard taking > 0 else { return }
        state = received[taking - 1]
        received.removeFirst(taking)
    }

    /// Ends the test: lets the presenter's pending work finish and what it scheduled run, then
    /// fails if a state was published and not asserted, or if work is still running.
    ///
    /// It can be called more than once (a test may go on after it); a state published after
    /// the last call is still reported when the store is released.
    ///
    /// - Parameter sourceLocation: Where a failure is reported.
    public func finish(sourceLocation: SourceLocation = #_sourceLocation) async {
        lastStep = sourceLocation
        await settle(untilAState: false)
        if let first = received.first {
            fail(
                "\(received.count) state(s) were published and never asserted; the first differs "
                    + "from the last asserted one by:\n" + Self.diff(from: state, to: first),
                sourceLocation)
            // The next step, if any, goes on from the newest state, as it does after `send`.
            state = received[received.count - 1]
            received.removeAll()
        }
        if isWorking {
            fail(
                "work the presenter started is still running at the end of the test, after waiting \(patience) for it",
                sourceLocation)
        }
    }

    // MARK: Comparing

    private func takeOne(
        _ expected: (inout Presenter.ViewState) -> Void, _ sourceLocation: SourceLocation
    ) {
        lastStep = sourceLocation
        var wanted = state
        expected(&wanted)
        guard !received.isEmpty else {
            fail(
                "a state was expected, but none was published; expected (− now, + expected):\n"
                    + Self.diff(from: state, to: wanted), sourceLocation)
            return
        }
        let actual = received.removeFirst()
        if actual != wanted {
            fail(
                "the state published differs from the expected one (− expected, + actual):\n"
                    + Self.diff(from: wanted, to: actual), sourceLocation)
        }
        state = actual
    }

    private func fail(_ message: String, _ sourceLocation: SourceLocation) {
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }

    /// The lines of `old`'s description that `new`'s lacks (−) and those it adds (+), in order,
    /// with unchanged lines left out; each line names its path (`rows[1].name`).
    nonisolated static func diff(from old: Presenter.ViewState, to new: Presenter.ViewState)
        -> String
    {
        LineDiff.render(
            from: StateDescription.lines(of: old), to: StateDescription.lines(of: new))
    }
}
