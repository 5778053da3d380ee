import MVCObservation
public import MVCPresenter
public import Observation

/// A presenter's view-state as an `@Observable` object: what SwiftUI, and UIKit code that uses
/// Apple's Observation, read to redraw.
///
/// The object follows the presenter with this project's observation and republishes each new
/// view-state through Apple's Observation, so a SwiftUI view that reads ``state`` redraws when it
/// changes, with no code of its own, and intents go to ``presenter`` as usual:
///
/// ```swift
/// let model = ObservableViewState(SwitchesPresenter(model: SwitchesModel()))
/// withObservationTracking {
///     _ = model.state.label
/// } onChange: {
///     print("the label will change")
/// }
/// model.presenter.buttonATapped()  // prints "the label will change"
/// ```
///
/// It holds the presenter strongly (a screen's model owns its presenter) and ends its
/// observation of it when released.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
@Observable
public final class ObservableViewState<Presenter: ViewStatePresenter> {
    /// The presenter's latest view-state; reading it inside an observation tracks it.
    public private(set) var state: Presenter.ViewState
    /// The presenter, for sending intents.
    @ObservationIgnored public let presenter: Presenter
    @ObservationIgnored private var token: ObservationToken?

    /// Starts following `presenter`'s view-state.
    ///
    /// - Parameter presenter: The presenter whose view-state to expose.
    public init(_ presenter: Presenter) {
        self.presenter = presenter
        self.state = presenter.viewState
        token = presenter.observeViewState { [weak self] newState in
            self?.state = newState
        }
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension ViewStatePresenter {
    /// This presenter's view-state as an `@Observable` object, for SwiftUI and Observation.
    ///
    /// - Returns: An object that follows this presenter and keeps it alive.
    public func observable() -> ObservableViewState<Self> {
        ObservableViewState(self)
    }
}
