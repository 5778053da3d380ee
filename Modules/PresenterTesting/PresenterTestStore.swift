import MVCObservation
public import MVCPresenter
public import Testing

/// Drives a presenter step by step and asserts every view-state it publishes, exhaustively.
///
/// Each step sends an intent, then writes each state it must lead to as a change to the
/// previous state, the way TCA's `TestStore` made familiar:
///
/// ```swift
/// let store = PresenterTestStore(SwitchesPresenter(model: SwitchesModel()))
/// store.send { $0.buttonATapped() }
/// store.expect {
///     $0.buttonA.isOn = true
///     $0.label = "Switch A turned on."
/// }
/// store.finish()
/// ```
///
/// A step fails, with a line-by-line diff, when the state differs from the expected one. The
/// store fails too when a state was published and not asserted (by
/// ``expect(sourceLocation:_:)``, ``receive(sourceLocation:_:)`` or ``skipStates(_:)``)
/// before the next intent or the end, and when ``finish(sourceLocation:)`` finds work still
/// running. Nothing published slips through unseen: if the test ends without `finish()`, the
/// store checks for unasserted states when it is released.
///
/// Failures are reported as Swift Testing issues at the step's source location.
@MainActor
public final class PresenterTestStore<Presenter: ViewStatePresenter> {
    /// The presenter under test.
    public let presenter: Presenter
    /// The state the last step asserted (at first, the presenter's state when the store began).
    public private(set) var state: Presenter.ViewState
    private var received: [Presenter.ViewState] = []
    private var token: ObservationToken?
    private let isBusy: (@MainActor () -> Bool)?
    private var finished = false

    /// Starts recording `presenter`'s view-states.
    ///
    /// - Parameters:
    ///   - presenter: The presenter to drive.
    ///   - isBusy: Whether work the presenter started is still running (a load in flight, say);
    ///     ``finish(sourceLocation:)`` fails while it says so. By default, the presenter's own
    ///     `hasPendingWork`.
    public init(_ presenter: Presenter, isBusy: (@MainActor () -> Bool)? = nil) {
        self.presenter = presenter
        self.state = presenter.viewState
        self.isBusy = isBusy
        self.token = presenter.observeViewState { [weak self] state in
            self?.received.append(state)
        }
    }

    // Not `isolated deinit`: the 6.3 compiler crashes lowering an isolated deinit of this generic
    // class in a coverage build. What it reads is Sendable, so a plain deinit may read it.
    deinit {
        guard !finished, !received.isEmpty else { return }
        Issue.record(
            Comment(
                rawValue:
                    "\(received.count) view-state(s) were published and never asserted; the first:\n"
                    + Self.describe(received[0])))
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
        if received.isEmpty { await presenter.pendingWorkFinished() }
        // Jobs already scheduled on the main actor (a task an intent started, a hop back from
        // other work) run when it yields; a bounded number of turns, not a duration.
        var turns = 0
        while received.isEmpty && turns < Self.turnsToSettle {
            await Task.yield()
            turns += 1
        }
        guard !received.isEmpty else {
            fail(
                "no state was published: the presenter's work has finished and the main actor "
                    + "has nothing left to run", sourceLocation)
            return
        }
        takeOne(expected, sourceLocation)
    }

    /// How many times ``receive(sourceLocation:_:)`` lets the main actor run scheduled jobs.
    private static var turnsToSettle: Int { 100 }

    /// Accepts the states published so far without asserting them, keeping the last as the state
    /// the next step changes; for steps whose in-between states the test does not care about.
    ///
    /// - Parameter count: How many states to accept; all of them when `nil`.
    public func skipStates(_ count: Int? = nil) {
        let taking = min(count ?? received.count, received.count)
        guard taking > 0 else { return }
        state = received[taking - 1]
        received.removeFirst(taking)
    }

    /// Ends the test: fails if a state was published and not asserted, or if work is still
    /// running.
    ///
    /// - Parameter sourceLocation: Where a failure is reported.
    public func finish(sourceLocation: SourceLocation = #_sourceLocation) {
        finished = true
        if !received.isEmpty {
            fail(
                "\(received.count) state(s) were published and never asserted; the first differs "
                    + "from the last asserted one by:\n" + Self.diff(from: state, to: received[0]),
                sourceLocation)
            received.removeAll()
        }
        if isBusy?() ?? presenter.hasPendingWork {
            fail(
                "work the presenter started is still running at the end of the test", sourceLocation
            )
        }
    }

    // MARK: Comparing

    private func takeOne(
        _ expected: (inout Presenter.ViewState) -> Void, _ sourceLocation: SourceLocation
    ) {
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

    /// The full structure of `value`, one leaf per line, each led by its path.
    nonisolated static func describe(_ value: Presenter.ViewState) -> String {
        StateDescription.lines(of: value).joined(separator: "\n")
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
