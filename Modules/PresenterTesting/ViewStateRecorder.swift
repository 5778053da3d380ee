import MVCObservation
public import MVCPresenter

/// Records every view-state a presenter publishes, so a test can assert the whole timeline.
///
/// Asserting only the last state lets a presenter flash a wrong state, or publish the same state
/// twice, unnoticed. The recorder keeps them all, starting with the state the presenter had when
/// recording began:
///
/// ```swift
/// let presenter = SwitchesPresenter(model: SwitchesModel())
/// let recorder = ViewStateRecorder(presenter)
/// presenter.buttonTapped("A")
/// #expect(recorder.timeline == [initial, afterA])
/// ```
///
/// For long flows, ``takeNewStates()`` hands over the states recorded since the previous call,
/// so a test can assert step by step and still miss none.
///
/// The recorder keeps the presenter alive while it records; release the recorder to stop.
@MainActor
public final class ViewStateRecorder<Presenter: ViewStatePresenter> {
    /// The presenter being recorded.
    public let presenter: Presenter
    /// Every view-state recorded, oldest first; the first is the state when recording began.
    public private(set) var timeline: [Presenter.ViewState]
    private var consumedCount = 0
    private var token: ObservationToken?

    /// Starts recording `presenter`'s view-states.
    ///
    /// - Parameter presenter: The presenter to record.
    public init(_ presenter: Presenter) {
        self.presenter = presenter
        self.timeline = [presenter.viewState]
        self.token = presenter.observeViewState { [weak self] state in
            self?.timeline.append(state)
        }
    }

    /// Returns the states recorded since the last call (or since recording began), in order.
    ///
    /// - Returns: The states not yet taken.
    public func takeNewStates() -> [Presenter.ViewState] {
        let fresh = Array(timeline[consumedCount...])
        consumedCount = timeline.count
        return fresh
    }

    /// The most recent view-state.
    public var latest: Presenter.ViewState {
        timeline[timeline.count - 1]
    }
}
