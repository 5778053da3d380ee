import MVCModel
import MVCObservation
import MVCPresenter

/// What the item editor shows: each field as typed, what is wrong with it, and where the edit is.
public struct ItemEditorViewState: Equatable, Sendable {
    public struct Field: Equatable, Sendable {
        public var name: String
        public var text: String
        public var problem: String?
    }

    public var fields: [Field]
    /// Why the last Save was refused.
    public var error: String?
    public var isOpen = true
}

/// Edits one item through its delegate, knowing neither the store nor which delegate it has.
@MainActor
public final class ItemEditor: ViewStatePresenter {
    /// Kept alive while the edit lasts, and let go when it ends.
    private var delegate: (any ItemEditorDelegate)?
    private var draft: ElementDraft<Item>
    private let state: ObservableProperty<ItemEditorViewState>

    public init(editing item: Item, delegate: any ItemEditorDelegate) {
        self.delegate = delegate
        draft = ElementDraft(editing: item)
        state = ObservableProperty(Self.viewState(for: draft))
    }

    public var viewState: ItemEditorViewState { state.value }

    public func observeViewState(_ handler: @escaping (ItemEditorViewState) -> Void)
        -> ObservationToken
    {
        state.observe(options: .new) { if let new = $0.newValue { handler(new) } }
    }

    private static func viewState(for draft: ElementDraft<Item>) -> ItemEditorViewState {
        ItemEditorViewState(
            fields: draft.fields.map {
                .init(name: $0.name, text: $0.text, problem: $0.problems.first?.description)
            })
    }
}
