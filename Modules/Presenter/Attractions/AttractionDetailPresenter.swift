public import MVCDelegates
public import MVCModel
public import MVCObservation
public import MVCTracing

/// Edits one attraction's fields and hands the result to its delegate.
///
/// It knows the model (to validate a draft) and the `AttractionEditorDelegate` protocol, and
/// nothing else: not the store, not whether the attraction is new. The delegate decides what
/// saving means.
///
/// **Ownership.** The editor keeps its delegate alive for exactly as long as the edit lasts: a
/// strong reference from the start, dropped when the edit is saved or cancelled. So a delegate
/// made on the spot and handed over does not vanish mid-edit (the weak-delegate trap), and a
/// finished editor does not keep its delegate, or the store behind it, alive.
///
/// The decisions are ``AttractionEditorCore``'s (a pure value); this class only runs its
/// effects (calling the delegate, letting it go) and publishes the view-state.
@MainActor
public final class AttractionDetailPresenter: ViewStatePresenter {
    private var delegate: (any AttractionEditorDelegate)?
    private var core: AttractionEditorCore
    private let tracer: HopTracer
    private let state: ObservableProperty<AttractionDetailViewState>

    /// Opens an editor on `attraction`.
    ///
    /// - Parameters:
    ///   - attraction: The attraction to edit (a blank one, with a fresh id, to create one).
    ///   - delegate: Told when the user saves or cancels; kept alive until then.
    ///   - tracer: Told each hop the editor makes.
    public init(
        editing attraction: Attraction,
        delegate: any AttractionEditorDelegate,
        tracer: HopTracer = .disabled
    ) {
        self.delegate = delegate
        self.core = AttractionEditorCore(editing: attraction)
        self.tracer = tracer
        self.state = ObservableProperty(core.viewState)
    }

    /// What the editor shows now.
    public var viewState: AttractionDetailViewState { state.value }

    /// Calls `handler` with each new view-state, until the token is released.
    public func observeViewState(_ handler: @escaping (AttractionDetailViewState) -> Void)
        -> ObservationToken
    {
        state.observe(options: .new) { change in
            if let newState = change.newValue { handler(newState) }
        }
    }

    /// Whether the edit is still open (not yet saved or cancelled).
    public var isEditing: Bool { core.isEditing }

    // MARK: Intents

    /// The user changed the text of the field called `name` (one of `Attraction.fields`).
    ///
    /// - Returns: Whether the editor has such a field; if not, nothing changed.
    @discardableResult
    public func fieldChanged(_ name: String, to text: String) -> Bool {
        guard core.viewState[field: name] != nil else { return false }
        send(.fieldChanged(name, to: text))
        return true
    }

    /// The user pressed Save: a valid draft goes to the delegate; the edit ends if it accepts it.
    ///
    /// - Returns: Whether the attraction was saved. If not, the view-state's `saveError` says why
    ///   and the edit stays open.
    @discardableResult
    public func saveTapped() -> Bool {
        guard core.isEditing else { return false }
        send(.saveTapped)
        return core.viewState.phase == .saved
    }

    /// The user pressed Cancel: the delegate hears of it, and the edit ends unsaved.
    public func cancelTapped() {
        send(.cancelTapped)
    }

    // MARK: Running the core's effects

    /// Applies `event`, runs the effects it asks for (which may send the delegate's answer back),
    /// then publishes the view-state once: an intent shows as at most one new state.
    private func send(_ event: AttractionEditorCore.Event) {
        var pending = [event]
        while !pending.isEmpty {
            let effects = core.handle(pending.removeFirst())
            for effect in effects {
                if let answer = run(effect) { pending.append(answer) }
            }
        }
        state.value = core.viewState
    }

    /// Runs one effect; returns the delegate's answer when the effect asked it a question.
    private func run(_ effect: AttractionEditorCore.Effect) -> AttractionEditorCore.Event? {
        switch effect {
        case .askDelegateToSave(let attraction):
            guard let delegate else { return .delegateRefused("the edit is over") }
            tracer.record(from: .presenter, to: .delegate, "saveAttraction(“\(attraction.name)”)")
            do {
                try delegate.saveAttraction(attraction)
                return .delegateAccepted
            } catch {
                // The delegate protocol's own error: the editor knows nothing of the store.
                return .delegateRefused(error.description)
            }
        case .tellDelegateCancelled:
            tracer.record(from: .presenter, to: .delegate, "cancelEditing()")
            delegate?.cancelEditing()
            return nil
        case .releaseDelegate:
            delegate = nil
            return nil
        }
    }
}
