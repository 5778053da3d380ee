import MVCListStore

/// What the list screen shows.
public struct PackingListViewState: Equatable, Sendable {
    /// One item, as the list shows it.
    public struct Row: Equatable, Sendable {
        /// The name it shows.
        public var name: String
        /// Whether it is in the bag.
        public var isPacked: Bool
        /// How many to take.
        public var quantity: Int
        /// The weight of one, once looked up.
        public var grams: Int?
    }

    /// The items, in order.
    public var rows: [Row] = []
    /// What Undo would undo, if anything.
    public var undoLabel: String?
    /// Why the last intent was refused, until the next change.
    public var error: String?
    /// How many items are not packed yet.
    public var itemsLeft: Int { rows.filter { !$0.isPacked }.count }
}

/// The list screen's decisions as a value: each event changes the view-state, nothing else.
public struct PackingListCore: Equatable, Sendable {

    /// What the screen shows.
    public private(set) var viewState = PackingListViewState()

    /// Starts from the store's items and what Undo would undo.
    public init(items: [Item], undoLabel: String?) {
        viewState.rows = items.map { Self.row($0, grams: nil) }
        viewState.undoLabel = undoLabel
    }

    private static func row(_ item: Item, grams: Int?) -> PackingListViewState.Row {
        .init(name: item.name, isPacked: item.isPacked, quantity: item.quantity, grams: grams)
    }
}
