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
    /// Something that happened to the list, or to an intent about it.
    public enum Event: Equatable, Sendable {
        case changed(ListStoreUpdate<Item>)
        case weighed(WeightUpdate)
        case refused(String)
    }

    /// What the screen shows.
    public private(set) var viewState = PackingListViewState()

    /// Starts from the store's items and what Undo would undo.
    public init(items: [Item], undoLabel: String?) {
        viewState.rows = items.map { Self.row($0, grams: nil) }
        viewState.undoLabel = undoLabel
    }

    /// Applies `event` to the view-state.
    public mutating func handle(_ event: Event) {
        switch event {
        case .changed(let update):
            switch update.change {
            case .inserted(let item, let at):
                viewState.rows.insert(Self.row(item, grams: nil), at: at)
            case .removed(_, let at): viewState.rows.remove(at: at)
            case .moved(_, let from, let to):
                viewState.rows.insert(viewState.rows.remove(at: from), at: to)
            case .replaced(let old, let item, let at):
                // A weight is of a name: a renamed item is weighed again.
                let sameName = WeightUpdate.key(for: old.name) == WeightUpdate.key(for: item.name)
                let grams = sameName ? viewState.rows[at].grams : nil
                viewState.rows[at] = Self.row(item, grams: grams)
            }
            viewState.undoLabel = update.undoLabel
            viewState.error = nil
        case .weighed(let weight):
            for index in viewState.rows.indices
            where WeightUpdate.key(for: viewState.rows[index].name) == weight.key {
                viewState.rows[index].grams = weight.grams
            }
        case .refused(let message):
            viewState.error = message
        }
    }

    private static func row(_ item: Item, grams: Int?) -> PackingListViewState.Row {
        .init(name: item.name, isPacked: item.isPacked, quantity: item.quantity, grams: grams)
    }
}
