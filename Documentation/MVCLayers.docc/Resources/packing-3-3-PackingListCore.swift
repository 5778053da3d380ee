/// What the list screen shows.
public struct PackingListViewState: Equatable, Sendable {
    /// One item as the screen shows it.
    public struct Row: Equatable, Sendable {
        /// The item's name.
        public var name: String
        /// Whether it is packed.
        public var isPacked: Bool

        /// A row showing `name`, packed or not.
        public init(name: String, isPacked: Bool) {
            self.name = name
            self.isPacked = isPacked
        }
    }

    /// The items, in order.
    public var rows: [Row] = []
    /// How many items are not packed yet.
    public var itemsLeft = 0
    /// What the Undo command says.
    public var undoTitle = "Undo"
    /// Why the last intent was refused, until the next change.
    public var error: String?
}

/// The list screen's decisions as a value: each event changes the view-state, nothing else.
public struct PackingListCore: Equatable, Sendable {
    /// Something that happened: a change in the list, or a refused intent.
    public enum Event: Equatable, Sendable {
        case changed(PackingChange, undoLabel: String?)
        case refused(String)
    }

    /// What the screen shows.
    public private(set) var viewState = PackingListViewState()

    /// Starts from the list's items and the label of what Undo would undo.
    public init(items: [Item], undoLabel: String?) {
        viewState.rows = items.map(Self.row)
        viewState.undoTitle = Self.undoTitle(undoLabel)
        countItemsLeft()
    }

    /// Applies `event` to the view-state.
    public mutating func handle(_ event: Event) {
        switch event {
        case .changed(let change, let undoLabel):
            switch change {
            case .added(let item, let row): viewState.rows.insert(Self.row(item), at: row)
            case .removed(_, let row): viewState.rows.remove(at: row)
            case .replaced(_, let item, let row): viewState.rows[row] = Self.row(item)
            }
            viewState.undoTitle = Self.undoTitle(undoLabel)
            viewState.error = nil
            countItemsLeft()
        case .refused(let message):
            viewState.error = message
        }
    }

    private mutating func countItemsLeft() {
        viewState.itemsLeft = viewState.rows.filter { !$0.isPacked }.count
    }

    private static func row(_ item: Item) -> PackingListViewState.Row {
        .init(name: item.name, isPacked: item.isPacked)
    }

    private static func undoTitle(_ label: String?) -> String {
        label.map { "Undo \($0)" } ?? "Undo"
    }
}
