import MVCElements
import MVCObservation
import MVCPresenter

/// What the item editor shows: each field as typed, what is wrong with it, and where the edit is.
public struct ItemEditorViewState: Equatable, Sendable {
    /// One field of the editor.
    public struct Field: Equatable, Sendable {
        /// The name it shows.
        public var name: String
        /// The text as typed.
        public var text: String
        /// What is wrong with it, if anything.
        public var problem: String?
    }

    /// Each field the item describes, in order.
    public var fields: [Field]
    /// Why the last Save was refused.
    public var error: String?
    /// Whether the edit is still open (not yet saved or cancelled).
    public var isOpen = true
}

extension ItemEditorViewState {
    /// What an editor on `draft` shows: each field's text, and the first problem with it.
    init(showing draft: ElementDraft<Item>) {
        fields = draft.fields.map {
            Field(name: $0.name, text: $0.text, problem: $0.problems.first?.description)
        }
    }
}

/// Edits one item through its delegate, knowing neither the store nor which delegate it has.
@MainActor
public final class ItemEditor {
    /// Kept alive while the edit lasts, and let go when it ends.
    private var delegate: (any ItemEditorDelegate)?
    private var draft: ElementDraft<Item>
    private let state: ObservableProperty<ItemEditorViewState>

    /// Opens an editor on `item` that saves through `delegate`.
    public init(editing item: Item, delegate: any ItemEditorDelegate) {
        self.delegate = delegate
        draft = ElementDraft(editing: item)
        state = ObservableProperty(ItemEditorViewState(showing: draft))
    }
}
