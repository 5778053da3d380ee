public import MVCObservation
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
/// model.presenter.buttonTapped("A")  // prints "the label will change"
/// ```
///
/// It holds the presenter strongly (a screen's model owns its presenter) and ends its
/// observation of it when released.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
public final class ObservableViewState<Presenter: ViewStatePresenter>: Observable {
    // Written out instead of with the `@Observable` macro: the macro's accessors build the
    // property's key path on every access, which in a generic class is a run-time instantiation
    // that cost more than the rest of a change (see the bridge figures in the benchmarks).
    // Inlinable, so a client's build specializes the delivery path for its view-state type.
    @usableFromInline var storedState: Presenter.ViewState
    @usableFromInline let registrar = ObservationRegistrar()
    @usableFromInline let stateKeyPath: KeyPath<ObservableViewState, Presenter.ViewState>
    @usableFromInline var token: ObservationToken?

    /// The presenter, for sending intents.
    public let presenter: Presenter

    /// The presenter's latest view-state; reading it inside an observation tracks it.
    @inlinable
    public var state: Presenter.ViewState {
        registrar.access(self, keyPath: stateKeyPath)
        return storedState
    }

    /// Starts following `presenter`'s view-state.
    ///
    /// - Parameter presenter: The presenter whose view-state to expose.
    @inlinable
    public init(_ presenter: Presenter) {
        self.presenter = presenter
        self.storedState = presenter.viewState
        self.stateKeyPath = \.state
        token = presenter.observeViewState { [weak self] newState in
            self?.stateChanged(to: newState)
        }
    }

    /// Stores a new view-state and tells Observation, which tells SwiftUI and any tracker.
    @inlinable
    func stateChanged(to newState: Presenter.ViewState) {
        registrar.withMutation(of: self, keyPath: stateKeyPath) {
            storedState = newState
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
