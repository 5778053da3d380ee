import MVCDelegates
import MVCModel
public import MVCObservation
public import MVCStore
public import MVCTracing

/// Presents the list of attractions and opens editors on them.
///
/// It follows the store's fine-grained changes: an insert inserts one row, a move moves one, an
/// update rebuilds one, so a long list is never rebuilt whole for a one-row edit. Undo and Redo
/// carry the labels of what they would do.
///
/// Editors get a delegate that fits: ``newTapped()`` opens one whose delegate adds to the store,
/// ``editTapped(at:)`` one whose delegate replaces the attraction it was opened on. The editor
/// itself knows neither.
@MainActor
public final class AttractionListPresenter: ViewStatePresenter {
    private let store: AttractionStore
    private let tracer: HopTracer
    private let state: ObservableProperty<AttractionListViewState>
    private var tokens: [ObservationToken] = []

    /// Creates a presenter for `store` and starts following its changes, its saving and its
    /// notices.
    ///
    /// - Parameters:
    ///   - store: The attractions to present.
    ///   - tracer: Told each hop the presenter makes or receives.
    public init(store: AttractionStore, tracer: HopTracer = .disabled) {
        self.store = store
        self.tracer = tracer
        self.state = ObservableProperty(
            AttractionListViewState(
                rows: store.attractions.map(Self.row),
                undo: Self.undoCommand(label: store.undoLabel),
                redo: Self.redoCommand(label: store.redoLabel),
                saveProblem: Self.saveProblem(store.saving.value)
            )
        )
        tokens.append(
            store.changes.subscribeToAll { [weak self] update in self?.storeChanged(update) })
        tokens.append(
            store.saving.observe(options: .new) { [weak self] change in
                guard let saving = change.newValue else { return }
                self?.state.update { $0.saveProblem = Self.saveProblem(saving) }
            })
        tokens.append(
            store.notice.observe(options: .new) { [weak self] change in
                guard let notice = change.newValue ?? nil else { return }
                self?.state.update { $0.notice = notice.message }
            })
    }

    /// What the list shows now.
    public var viewState: AttractionListViewState { state.value }

    /// Calls `handler` with each new view-state, until the token is released.
    public func observeViewState(_ handler: @escaping (AttractionListViewState) -> Void)
        -> ObservationToken
    {
        state.observe(options: .new) { change in
            if let newState = change.newValue { handler(newState) }
        }
    }

    // MARK: Intents (positions count from 0; screens show them from 1)
    //
    // Each intent returns whether it succeeded; a failure also shows as the view-state's
    // `lastError`, which the next successful change clears.

    /// The user added an attraction by name in one step.
    ///
    /// It goes the way an editor's Save goes, through a create delegate, so there is one path
    /// for creating an attraction.
    ///
    /// - Returns: Whether it was added; if not, the view-state's `lastError` says why.
    @discardableResult
    public func addTapped(name: String) -> Bool {
        let delegate = CreateAttractionDelegate(store: store, tracer: tracer)
        let attraction: Attraction
        do {
            attraction = try AttractionDraft(name: name).validated(id: delegate.newAttraction.id)
        } catch {
            show(error.description)
            return false
        }
        tracer.record(from: .presenter, to: .delegate, "saveAttraction(“\(attraction.name)”)")
        do {
            try delegate.saveAttraction(attraction)
            return true
        } catch {
            show(error.description)
            return false
        }
    }

    /// The user asked for a new attraction: an editor whose delegate adds to the store.
    ///
    /// - Returns: The editor, on a blank attraction.
    public func newTapped() -> AttractionDetailPresenter {
        let delegate = CreateAttractionDelegate(store: store, tracer: tracer)
        clearError()
        return AttractionDetailPresenter(
            editing: delegate.newAttraction, delegate: delegate, tracer: tracer)
    }

    /// The user asked to edit the attraction at `position`: an editor whose delegate replaces it.
    ///
    /// - Returns: The editor, or `nil` (with the error shown) if there is no such row.
    public func editTapped(at position: Int) -> AttractionDetailPresenter? {
        perform { () throws(AttractionStoreError) -> AttractionDetailPresenter in
            let attraction = try store.attraction(at: position)
            let delegate = EditAttractionDelegate(
                editing: attraction, in: store, tracer: tracer)
            return AttractionDetailPresenter(
                editing: attraction, delegate: delegate, tracer: tracer)
        }
    }

    /// The user dragged the row at `source` to `destination`.
    @discardableResult
    public func moveTapped(from source: Int, to destination: Int) -> Bool {
        tracer.record(from: .presenter, to: .store, "move(from: \(source), to: \(destination))")
        return perform { () throws(AttractionStoreError) in
            try store.move(from: source, to: destination)
        } != nil
    }

    /// The user deleted the row at `position`.
    @discardableResult
    public func deleteTapped(at position: Int) -> Bool {
        tracer.record(from: .presenter, to: .store, "delete(at: \(position))")
        return perform { () throws(AttractionStoreError) in _ = try store.delete(at: position) }
            != nil
    }

    /// The user chose Undo.
    @discardableResult
    public func undoTapped() -> Bool {
        tracer.record(from: .presenter, to: .store, "undo()")
        return perform { () throws(AttractionStoreError) in try store.undo() } != nil
    }

    /// The user chose Redo.
    @discardableResult
    public func redoTapped() -> Bool {
        tracer.record(from: .presenter, to: .store, "redo()")
        return perform { () throws(AttractionStoreError) in try store.redo() } != nil
    }

    // MARK: Following the store

    /// Applies one update to the rows, and refreshes Undo and Redo, as one new view-state.
    ///
    /// The update carries every value it needs, so the presenter does not read the store during a
    /// delivery (when the store may already have moved on). Updates arrive in order, so their
    /// positions always fit the rows; one that did not would be a bug in the store, and only then
    /// are the rows rebuilt from the store, instead of trapping.
    private func storeChanged(_ update: AttractionStoreUpdate) {
        tracer.record(from: .observation, to: .presenter, "storeChanged(\(update.change.summary))")
        let store = self.store
        // In place: one row changes, and a long list is not copied for it.
        state.modify { state in
            if !Self.apply(update.change, to: &state.rows) {
                state.rows = store.attractions.map(Self.row)
            }
            state.undo = Self.undoCommand(label: update.undoLabel)
            state.redo = Self.redoCommand(label: update.redoLabel)
            state.lastError = nil
        }
    }

    /// Applies `change` to `rows`; `false` if its positions do not fit them.
    private static func apply(
        _ change: AttractionListChange, to rows: inout [AttractionListViewState.Row]
    )
        -> Bool
    {
        switch change {
        case .inserted(let attraction, let position):
            guard (0...rows.count).contains(position) else { return false }
            rows.insert(row(attraction), at: position)
        case .removed(_, let position):
            guard rows.indices.contains(position) else { return false }
            rows.remove(at: position)
        case .moved(_, let source, let destination):
            guard rows.indices.contains(source), rows.indices.contains(destination) else {
                return false
            }
            rows.insert(rows.remove(at: source), at: destination)
        case .replaced(_, let attraction, let position):
            guard rows.indices.contains(position) else { return false }
            rows[position] = row(attraction)
        }
        return true
    }

    private func perform<Result>(_ action: () throws(AttractionStoreError) -> Result) -> Result? {
        do {
            return try action()
        } catch {
            // A refused undo or redo may have dropped its edit: the commands are read again (an
            // intent runs outside any delivery, so reading the store here is safe).
            let store = self.store
            state.update { state in
                state.lastError = error.description
                state.undo = Self.undoCommand(label: store.undoLabel)
                state.redo = Self.redoCommand(label: store.redoLabel)
            }
            return nil
        }
    }

    private func clearError() {
        if state.value.lastError != nil { state.update { $0.lastError = nil } }
    }

    private func show(_ error: String) {
        state.update { $0.lastError = error }
    }

    private static func row(_ attraction: Attraction) -> AttractionListViewState.Row {
        AttractionListViewState.Row(
            id: attraction.id.description, name: attraction.name, notes: attraction.notes)
    }

    private static func undoCommand(label: String?) -> AttractionListViewState.Command {
        .init(title: label.map { "Undo \($0)" } ?? "Undo", isEnabled: label != nil)
    }

    private static func redoCommand(label: String?) -> AttractionListViewState.Command {
        .init(title: label.map { "Redo \($0)" } ?? "Redo", isEnabled: label != nil)
    }

    private static func saveProblem(_ saving: AttractionSavingState) -> String? {
        guard case .failed(let message, let attempts) = saving else { return nil }
        return attempts > 1 ? "\(message) (failed \(attempts) times in a row)" : message
    }
}
