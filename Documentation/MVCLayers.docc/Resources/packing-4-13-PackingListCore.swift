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
