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
@MainActor
public final class AttractionDetailPresenter: ViewStatePresenter {
    private var delegate: (any AttractionEditorDelegate)?
    private let attractionID: Attraction.ID
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
        self.attractionID = attraction.id
        self.tracer = tracer
        self.state = ObservableProperty(Self.viewState(for: AttractionDraft(attraction)))
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
    public var isEditing: Bool { delegate != nil }

    // MARK: Intents

    /// The user changed the name field.
    public func nameChanged(_ name: String) {
        guard isEditing else { return }
        edit { $0.name = name }
    }

    /// The user changed the notes field.
    public func notesChanged(_ notes: String) {
        guard isEditing else { return }
        edit { $0.notes = notes }
    }

    /// The user pressed Save: a valid draft goes to the delegate; the edit ends if it accepts it.
    ///
    /// - Returns: Whether the attraction was saved. If not, the view-state's `saveError` says why
    ///   and the edit stays open.
    @discardableResult
    public func saveTapped() -> Bool {
        guard let delegate else { return false }
        let attraction: Attraction
        do {
            attraction = try draft.validated(id: attractionID)
        } catch {
            state.update { $0.saveError = error.description }
            return false
        }
        tracer.record(from: .presenter, to: .delegate, "saveAttraction(“\(attraction.name)”)")
        do {
            try delegate.saveAttraction(attraction)
        } catch {
            // The delegate protocol's own error: the editor knows nothing of the store.
            state.update { $0.saveError = error.description }
            return false
        }
        self.delegate = nil
        state.update { state in
            state.saveError = nil
            state.phase = .saved
        }
        return true
    }

    /// The user pressed Cancel: the delegate hears of it, and the edit ends unsaved.
    public func cancelTapped() {
        guard let delegate else { return }
        tracer.record(from: .presenter, to: .delegate, "cancelEditing()")
        delegate.cancelEditing()
        self.delegate = nil
        state.update { $0.phase = .cancelled }
    }

    // MARK: State

    private var draft: AttractionDraft {
        AttractionDraft(name: state.value.name, notes: state.value.notes)
    }

    private func edit(_ change: (inout AttractionDraft) -> Void) {
        var draft = self.draft
        change(&draft)
        state.value = Self.viewState(for: draft)
    }

    /// The editing view-state for `draft`: its fields, its problems, whether it can be saved.
    private static func viewState(for draft: AttractionDraft) -> AttractionDetailViewState {
        let problems = draft.problems
        return AttractionDetailViewState(
            name: draft.name,
            notes: draft.notes,
            nameMessage: problems.first { $0.field == .name }?.description,
            notesMessage: problems.first { $0.field == .notes }?.description,
            isSaveEnabled: problems.isEmpty
        )
    }
}
