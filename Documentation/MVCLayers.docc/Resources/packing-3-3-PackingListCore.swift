/// What the list screen shows.
public struct PackingListViewState: Equatable, Sendable {
    public struct Row: Equatable, Sendable {
        public var name: String
        public var isPacked: Bool

        public init(name: String, isPacked: Bool) {
            self.name = name
            self.isPacked = isPacked
        }
    }

    public var rows: [Row] = []
    public var itemsLeft = 0
    public var undoTitle = "Undo"
    public var error: String?
}

/// The list screen's decisions as a value: each event changes the view-state, nothing else.
public struct PackingListCore: Equatable, Sendable {
    public enum Event: Equatable, Sendable {
        case changed(PackingChange, undoLabel: String?)
        case refused(String)
    }

    public private(set) var viewState = PackingListViewState()

    public init(items: [Item], undoLabel: String?) {
        viewState.rows = items.map(Self.row)
        viewState.undoTitle = Self.undoTitle(undoLabel)
        countItemsLeft()
    }

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
