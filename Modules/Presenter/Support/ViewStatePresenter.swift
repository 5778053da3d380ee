public import MVCObservation

/// A headless presenter: it takes intents, and publishes what the screen shows as one value.
///
/// The view-state is a plain `Equatable` value holding display values only (strings, numbers,
/// booleans, ids, enums declared here), so a view renders it without importing the model, and a
/// test compares whole states. Every change of the view-state reaches ``observeViewState(_:)``
/// observers, which is how a view re-renders and how `MVCPresenterTesting` records a timeline.
@MainActor
public protocol ViewStatePresenter: AnyObject {
    /// Everything the screen shows.
    associatedtype ViewState: Equatable & Sendable

    /// What the screen shows now.
    var viewState: ViewState { get }

    /// Calls `handler` with each new view-state, until the token is released.
    ///
    /// - Parameter handler: Receives every view-state after the current one.
    /// - Returns: The token that keeps the observation alive.
    func observeViewState(_ handler: @escaping (ViewState) -> Void) -> ObservationToken

    /// Whether work this presenter started (a load in flight) has not finished yet.
    ///
    /// A presenter that starts no work of its own keeps the default, `false`.
    var hasPendingWork: Bool { get }

    /// Returns once the work this presenter started has finished and published its states.
    ///
    /// Tests wait on this instead of on the clock, so a slow machine cannot make them flaky. A
    /// presenter that starts no work of its own keeps the default, which returns at once.
    func pendingWorkFinished() async
}

extension ViewStatePresenter {
    /// No work of its own: `false`.
    public var hasPendingWork: Bool { false }

    /// No work of its own: returns at once.
    public func pendingWorkFinished() async {}
}
