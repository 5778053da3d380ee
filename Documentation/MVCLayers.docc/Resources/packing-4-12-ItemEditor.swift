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

    /// The user typed `text` into the field called `name`; `false` if there is no such field.
    @discardableResult
    public func fieldChanged(_ name: String, to text: String) -> Bool {
        guard state.value.isOpen, draft.setText(text, ofField: name) else { return false }
        state.value = ItemEditorViewState(showing: draft)
        return true
    }

    /// The user pressed Save: a valid draft goes to the delegate, and the edit ends if it keeps it.
    @discardableResult
    public func saveTapped() -> Bool {
        guard state.value.isOpen, let delegate else { return false }
        do {
            try delegate.saveItem(draft.validated().get())
        } catch {
            state.update { $0.error = "\(error)" }
            return false
        }
        self.delegate = nil
        state.update { $0.isOpen = false }
        return true
    }

    /// The user pressed Cancel: the delegate hears it, and the edit ends.
    public func cancelTapped() {
        guard state.value.isOpen else { return }
        delegate?.cancelEditing()
        delegate = nil
        state.update { $0.isOpen = false }
    }
}

/// What every presenter offers a view: its view-state, and a way to follow it.
extension ItemEditor: ViewStatePresenter {
    /// What the editor shows now.
    public var viewState: ItemEditorViewState { state.value }

    /// Calls `handler` with each new view-state, until the token is released.
    public func observeViewState(_ handler: @escaping (ItemEditorViewState) -> Void)
        -> ObservationToken
    {
        state.observe(options: .new) { if let new = $0.newValue { handler(new) } }
    }
}
