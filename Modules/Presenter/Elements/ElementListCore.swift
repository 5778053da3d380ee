public import MVCElements
public import MVCListStore

/// The list screen's decisions, as a value: how each store update, saving state, notice and
/// refused intent changes what the list shows.
///
/// The ``ElementListPresenter`` calls the store and feeds what happened back as events; the
/// core never reads the store. A store update carries the elements it is about, so the core
/// edits one row for a one-row change:
///
/// ```swift
/// var core = ElementListCore<Attraction>(elements: [], undoLabel: nil, redoLabel: nil)
/// let louvre = Attraction(name: "Louvre")
/// core.handle(.storeChanged(ListStoreUpdate(
///     change: .inserted(louvre, at: 0), undoLabel: "Add “Louvre”", redoLabel: nil)))
/// core.viewState.rows.map(\.name)   // ["Louvre"]
/// core.viewState.undo.title          // "Undo Add “Louvre”"
/// ```
///
/// **Every event is decided in every state.** The list has no modes: each event is a total
/// function of the view-state. The one effect is ``Effect/reloadFromStore``, asked for when an
/// update's positions do not fit the rows (which would be a store bug): the presenter answers
/// with ``Event/reloaded(_:undoLabel:redoLabel:)`` instead of the core trapping.
public struct ElementListCore<Element: ListElement>: Equatable, Sendable {
    /// Something that happened: a store update, a change of saving state, or an intent's outcome.
    public enum Event: Equatable, Sendable {
        /// The store published an update.
        case storeChanged(ListStoreUpdate<Element>)
        /// The store's saving state changed.
        case savingChanged(SaveStatus)
        /// The store resolved a conflict while taking in another process's save.
        case noticeArrived(ListStoreNotice)
        /// The whole list, read again from the store, with the commands' labels.
        case reloaded([Element], undoLabel: String?, redoLabel: String?)
        /// The store refused an intent; the labels are the store's after the refusal (a refused
        /// undo may have dropped its edit).
        case intentFailed(String, undoLabel: String?, redoLabel: String?)
        /// An intent was refused before reaching the store (its input broke the model's rules).
        case inputRefused(String)
        /// The user moved on (opened an editor): the last error no longer applies.
        case errorDismissed
    }

    /// What the presenter must do after a transition.
    public enum Effect: Equatable, Sendable {
        /// Read the whole list and the commands' labels from the store, and send them back as
        /// ``Event/reloaded(_:undoLabel:redoLabel:)``.
        case reloadFromStore
    }

    /// What the list shows.
    public private(set) var viewState: ElementListViewState<Element>

    /// Starts from the store's list, its commands' labels and its saving state.
    ///
    /// - Parameters:
    ///   - elements: The elements, in order.
    ///   - undoLabel: What Undo would undo, if anything.
    ///   - redoLabel: What Redo would redo, if anything.
    ///   - saving: Where saving stands.
    public init(
        elements: [Element], undoLabel: String?, redoLabel: String?,
        saving: SaveStatus = .saved
    ) {
        viewState = ElementListViewState<Element>(
            rows: elements.map(Self.row),
            undo: Self.undoCommand(label: undoLabel),
            redo: Self.redoCommand(label: redoLabel),
            saveProblem: saving.problem
        )
        viewState.isSavePending = saving == .pending
    }

    /// Applies `event` to the view-state, in place, and returns the effects to run.
    ///
    /// - Parameter event: What happened.
    /// - Returns: The effects the presenter must run; empty unless the rows must be reloaded.
    @discardableResult
    public mutating func handle(_ event: Event) -> [Effect] {
        switch event {
        case .storeChanged(let update):
            viewState.undo = Self.undoCommand(label: update.undoLabel)
            viewState.redo = Self.redoCommand(label: update.redoLabel)
            viewState.lastError = nil
            // A notice is said once: the next change of the list takes it off the screen.
            viewState.notice = nil
            return Self.apply(update.change, to: &viewState.rows) ? [] : [.reloadFromStore]
        case .savingChanged(let saving):
            viewState.saveProblem = saving.problem
            viewState.isSavePending = saving == .pending
            return []
        case .noticeArrived(let notice):
            viewState.notice = notice.message
            return []
        case .reloaded(let elements, let undoLabel, let redoLabel):
            viewState.rows = elements.map(Self.row)
            viewState.undo = Self.undoCommand(label: undoLabel)
            viewState.redo = Self.redoCommand(label: redoLabel)
            return []
        case .intentFailed(let message, let undoLabel, let redoLabel):
            viewState.lastError = message
            viewState.undo = Self.undoCommand(label: undoLabel)
            viewState.redo = Self.redoCommand(label: redoLabel)
            return []
        case .inputRefused(let message):
            viewState.lastError = message
            return []
        case .errorDismissed:
            viewState.lastError = nil
            return []
        }
    }

    /// Applies `change` to `rows`; `false` (rows untouched) if its positions do not fit them.
    private static func apply(
        _ change: ListChange<Element>, to rows: inout [ElementListViewState<Element>.Row]
    ) -> Bool {
        switch change {
        case .inserted(let element, let position):
            guard (0...rows.count).contains(position) else { return false }
            rows.insert(row(element), at: position)
        case .removed(_, let position):
            guard rows.indices.contains(position) else { return false }
            rows.remove(at: position)
        case .moved(_, let source, let destination):
            guard rows.indices.contains(source), rows.indices.contains(destination) else {
                return false
            }
            rows.insert(rows.remove(at: source), at: destination)
        case .replaced(_, let element, let position):
            guard rows.indices.contains(position) else { return false }
            rows[position] = row(element)
        }
        return true
    }

    private static func row(_ element: Element) -> ElementListViewState<Element>.Row {
        ElementListViewState<Element>.Row(
            id: String(describing: element.id), name: element.title, parts: element.listedParts)
    }

    private static func undoCommand(label: String?) -> ElementListViewState<Element>.Command {
        .init(title: label.map { "Undo \($0)" } ?? "Undo", isEnabled: label != nil)
    }

    private static func redoCommand(label: String?) -> ElementListViewState<Element>.Command {
        .init(title: label.map { "Redo \($0)" } ?? "Redo", isEnabled: label != nil)
    }
}
