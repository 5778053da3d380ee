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
