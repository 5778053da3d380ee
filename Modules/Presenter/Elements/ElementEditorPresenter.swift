public import MVCDelegates
public import MVCElements
public import MVCObservation
public import MVCTracing

/// Edits one element's fields and hands the result to its delegate.
///
/// It knows the model (to validate a draft) and the delegate protocol, nothing else: not the
/// store, not whether the element is new; the delegate decides what saving means.
///
/// **Ownership.** The editor keeps its delegate for exactly as long as the edit lasts (dropped
/// when saved or cancelled): a delegate made on the spot does not vanish mid-edit (the
/// weak-delegate trap), and a finished editor keeps neither it nor the store behind it alive.
/// The decisions are ``ElementEditorCore``'s (a pure value); this class runs its effects.
@MainActor
public final class ElementEditorPresenter<Element: ListElement>: ViewStatePresenter {
    private var delegate: (any ElementEditorDelegate<Element>)?
    private var core: ElementEditorCore<Element>
    private let tracer: HopTracer
    private let state: ObservableProperty<ElementEditorViewState>

    /// Opens an editor on `element`.
    ///
    /// - Parameters:
    ///   - element: The element to edit (a blank one, with a fresh id, to create one).
    ///   - delegate: Told when the user saves or cancels; kept alive until then.
    ///   - tracer: Told each hop the editor makes.
    public init(
        editing element: Element,
        delegate: any ElementEditorDelegate<Element>,
        tracer: HopTracer = .disabled
    ) {
        self.delegate = delegate
        self.core = ElementEditorCore<Element>(editing: element)
        self.tracer = tracer
        self.state = ObservableProperty(core.viewState)
    }

    /// What the editor shows now.
    public var viewState: ElementEditorViewState { state.value }

    /// Calls `handler` with each new view-state, until the token is released.
    public func observeViewState(_ handler: @escaping (ElementEditorViewState) -> Void)
        -> ObservationToken
    {
        state.observe(options: .new) { change in
            if let newState = change.newValue { handler(newState) }
        }
    }

    /// Whether the edit is still open (not yet saved or cancelled).
    public var isEditing: Bool { core.isEditing }

    // MARK: Intents

    /// The user changed the text of the field called `name` (one of `Element.fields`).
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
    /// - Returns: Whether the element was saved. If not, the view-state's `saveError` says why
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
    private func send(_ event: ElementEditorCore<Element>.Event) {
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
    private func run(_ effect: ElementEditorCore<Element>.Effect) -> ElementEditorCore<Element>
        .Event?
    {
        switch effect {
        case .askDelegateToSave(let element):
            guard let delegate else { return .delegateRefused("the edit is over") }
            tracer.record(from: .presenter, to: .delegate, "saveElement(“\(element.title)”)")
            do {
                try delegate.saveElement(element)
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
