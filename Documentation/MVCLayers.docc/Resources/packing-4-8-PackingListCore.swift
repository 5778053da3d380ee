import MVCStore

/// What the list screen shows.
public struct PackingListViewState: Equatable, Sendable {
    public struct Row: Equatable, Sendable {
        public var name: String
        public var isPacked: Bool
        public var quantity: Int
        /// The weight of one, once looked up.
        public var grams: Int?
    }

    public var rows: [Row] = []
    /// What Undo would undo, if anything.
    public var undoLabel: String?
    /// Why the last intent was refused, until the next change.
    public var error: String?

    public var itemsLeft: Int { rows.filter { !$0.isPacked }.count }
}

/// The list screen's decisions as a value: each event changes the view-state, nothing else.
public struct PackingListCore: Equatable, Sendable {
    public enum Event: Equatable, Sendable {
        case changed(ListStoreUpdate<Item>)
        case weighed(WeightUpdate)
        case refused(String)
    }

    public private(set) var viewState = PackingListViewState()

    public init(items: [Item], undoLabel: String?) {
        viewState.rows = items.map { Self.row($0, grams: nil) }
        viewState.undoLabel = undoLabel
    }

    private static func row(_ item: Item, grams: Int?) -> PackingListViewState.Row {
        .init(name: item.name, isPacked: item.isPacked, quantity: item.quantity, grams: grams)
    }
}
