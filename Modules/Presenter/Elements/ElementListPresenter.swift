import MVCDelegates
public import MVCElements
public import MVCListStore
public import MVCObservation
public import MVCTracing

/// Presents a list of elements and opens editors on them, following the store's fine-grained
/// changes (an insert inserts one row, an update rebuilds one), so a long list is never rebuilt
/// for a one-row edit.
///
/// Editors get a delegate that fits: ``newTapped()`` one that adds to the store,
/// ``editTapped(at:)`` one that merges the edit into the element it was opened on; the editor
/// knows neither. The decisions are ``ElementListCore``'s (a pure value); this class calls the
/// store, feeds what happened to the core, and publishes its view-state.
@MainActor
public final class ElementListPresenter<Element: ListElement>: ViewStatePresenter {
    private let store: ListStore<Element>
    private let makeNew: @MainActor () -> Element
    private let tracer: HopTracer
    /// The core, observed whole; a view-state observer is handed its `viewState`.
    private let state: ObservableProperty<ElementListCore<Element>>
    private var tokens: [ObservationToken] = []

    /// Creates a presenter of `store`, following its changes, its saving and its notices.
    ///
    /// - Parameters:
    ///   - store: The elements to present.
    ///   - newElement: A blank element with a new id, for each new one the user starts.
    ///   - tracer: Told each hop the presenter makes or receives.
    public init(
        store: ListStore<Element>, newElement: @escaping @MainActor () -> Element,
        tracer: HopTracer = .disabled
    ) {
        self.store = store
        self.makeNew = newElement
        self.tracer = tracer
        self.state = ObservableProperty(
            ElementListCore<Element>(
                elements: store.elements, undoLabel: store.undoLabel,
                redoLabel: store.redoLabel, saving: store.saving.value))
        tokens.append(
            store.changes.subscribeToAll { [weak self] update in
                guard let self else { return }
                self.tracer.record(
                    from: .observation, to: .presenter,
                    "send(.storeChanged(\(update.change.summary)))")
                self.send(.storeChanged(update))
            })
        tokens.append(
            store.saving.observe(options: .new) { [weak self] change in
                guard let self, let saving = change.newValue else { return }
                self.tracer.record(
                    from: .observation, to: .presenter, "send(.savingChanged(.\(saving.word)))")
                self.send(.savingChanged(saving))
            })
        tokens.append(
            store.notice.observe(options: .new) { [weak self] change in
                guard let notice = change.newValue ?? nil else { return }
                self?.send(.noticeArrived(notice))
            })
    }

    /// What the list shows now.
    public var viewState: ElementListViewState<Element> { state.value.viewState }

    /// Calls `handler` with each new view-state, until the token is released.
    public func observeViewState(_ handler: @escaping (ElementListViewState<Element>) -> Void)
        -> ObservationToken
    {
        state.observe(options: .new) { change in
            if let newState = change.newValue { handler(newState.viewState) }
        }
    }

    // MARK: Intents (positions from 0; screens show them from 1). Each returns whether it
    // succeeded; a failure also shows as `lastError`, which the next successful change clears.

    /// The user added an element in one step, typing its first described field (a name).
    ///
    /// It goes the way an editor's Save goes, through a create delegate: one path to create.
    ///
    /// - Returns: Whether it was added; if not, the view-state's `lastError` says why.
    @discardableResult
    public func addTapped(name: String) -> Bool {
        let delegate = CreateElementDelegate(store: store, newElement: makeNew(), tracer: tracer)
        var draft = ElementDraft(editing: delegate.newElement)
        guard let first = Element.fields.first else {
            send(.inputRefused("\(Element.pluralNoun) have no field to type into"))
            return false
        }
        draft.setText(name, ofField: first.name)
        let element: Element
        switch draft.validated() {
        case .success(let valid): element = valid
        case .failure(let problem):
            send(.inputRefused(problem.description))
            return false
        }
        tracer.record(from: .presenter, to: .delegate, "saveElement(“\(element.title)”)")
        do {
            try delegate.saveElement(element)
            return true
        } catch {
            send(.inputRefused(error.description))
            return false
        }
    }

    /// The user asked for a new element: an editor whose delegate adds to the store.
    ///
    /// - Returns: The editor, on a blank element.
    public func newTapped() -> ElementEditorPresenter<Element> {
        let delegate = CreateElementDelegate(store: store, newElement: makeNew(), tracer: tracer)
        send(.errorDismissed)
        return ElementEditorPresenter<Element>(
            editing: delegate.newElement, delegate: delegate, tracer: tracer)
    }

    /// The user asked to edit the element at `position`: an editor whose delegate merges the
    /// edit into it.
    ///
    /// - Returns: The editor, or `nil` (with the error shown) if there is no such row.
    public func editTapped(at position: Int) -> ElementEditorPresenter<Element>? {
        perform { () throws(ListStoreError<Element>) -> ElementEditorPresenter<Element> in
            let element = try store.element(at: position)
            let delegate = EditElementDelegate(
                editing: element, in: store, tracer: tracer)
            return ElementEditorPresenter<Element>(
                editing: element, delegate: delegate, tracer: tracer)
        }
    }

    /// The user dragged the row at `source` to `destination`.
    @discardableResult
    public func moveTapped(from source: Int, to destination: Int) -> Bool {
        tracer.record(from: .presenter, to: .store, "move(from: \(source), to: \(destination))")
        return perform { () throws(ListStoreError<Element>) in
            try store.move(from: source, to: destination)
        } != nil
    }

    /// The user deleted the row at `position`.
    @discardableResult
    public func deleteTapped(at position: Int) -> Bool {
        tracer.record(from: .presenter, to: .store, "delete(at: \(position))")
        return perform { () throws(ListStoreError<Element>) in _ = try store.delete(at: position) }
            != nil
    }

    /// The user chose Undo.
    @discardableResult
    public func undoTapped() -> Bool {
        tracer.record(from: .presenter, to: .store, "undo()")
        return perform { () throws(ListStoreError<Element>) in try store.undo() } != nil
    }

    /// The user chose Redo.
    @discardableResult
    public func redoTapped() -> Bool {
        tracer.record(from: .presenter, to: .store, "redo()")
        return perform { () throws(ListStoreError<Element>) in try store.redo() } != nil
    }

    // MARK: Running the core

    /// Applies `event` and runs the effects it asks for.
    ///
    /// A store update is applied in place (`modify`), so one row's change does not copy a long
    /// list; other events go through `update`, which publishes nothing when nothing changed.
    private func send(_ event: ElementListCore<Element>.Event) {
        var effects: [ElementListCore<Element>.Effect] = []
        if case .storeChanged = event {
            state.modify { effects = $0.handle(event) }
        } else {
            state.update { effects = $0.handle(event) }
        }
        for effect in effects {
            switch effect {
            case .reloadFromStore:
                // Only when an update's positions did not fit the rows (a store bug): the list is
                // read whole instead of trapping.
                send(
                    .reloaded(
                        store.elements, undoLabel: store.undoLabel, redoLabel: store.redoLabel))
            }
        }
    }

    private func perform<Result>(_ action: () throws(ListStoreError<Element>) -> Result) -> Result?
    {
        do {
            return try action()
        } catch {
            // A refused undo or redo may have dropped its edit: the labels are read again (an
            // intent runs outside any delivery, so reading the store here is safe).
            send(
                .intentFailed(
                    error.description, undoLabel: store.undoLabel, redoLabel: store.redoLabel))
            return nil
        }
    }
}
