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

    public mutating func handle(_ event: Event) {
        switch event {
        case .changed(let update):
            switch update.change {
            case .inserted(let item, let at):
                viewState.rows.insert(Self.row(item, grams: nil), at: at)
            case .removed(_, let at): viewState.rows.remove(at: at)
            case .moved(_, let from, let to):
                viewState.rows.insert(viewState.rows.remove(at: from), at: to)
            case .replaced(_, let item, let at):
                viewState.rows[at] = Self.row(item, grams: viewState.rows[at].grams)
            }
            viewState.undoLabel = update.undoLabel
            viewState.error = nil
        case .weighed(let weight):
            for index in viewState.rows.indices where viewState.rows[index].name == weight.name {
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
