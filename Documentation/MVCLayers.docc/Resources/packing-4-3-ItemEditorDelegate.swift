import MVCStore

/// Why a delegate could not keep what the editor saved.
public struct ItemEditorError: Error, Equatable, CustomStringConvertible {
    public let description: String
}

/// What an item editor tells whoever opened it. The editor knows only this protocol: not the
/// store, and not whether it creates an item or edits one.
@MainActor
public protocol ItemEditorDelegate: AnyObject {
    func saveItem(_ item: Item) throws(ItemEditorError)
    /// Optional: the default does nothing. A delegate that implements it is always called.
    func cancelEditing()
}

extension ItemEditorDelegate {
    public func cancelEditing() {}
}

/// Saving adds the item to the store.
@MainActor
public final class AddItemDelegate: ItemEditorDelegate {
    private let store: ListStore<Item>

    public init(store: ListStore<Item>) { self.store = store }

    public func saveItem(_ item: Item) throws(ItemEditorError) {
        do { try store.add(item) } catch { throw ItemEditorError(description: error.description) }
    }
}

/// Saving applies the editor's changes to the item it was opened on, wherever it now is.
@MainActor
public final class EditItemDelegate: ItemEditorDelegate {
    private let store: ListStore<Item>
    private let original: Item

    public init(store: ListStore<Item>, original: Item) {
        self.store = store
        self.original = original
    }

    public func saveItem(_ item: Item) throws(ItemEditorError) {
        do {
            try store.apply(editOf: original, result: item)
        } catch {
            throw ItemEditorError(description: error.description)
        }
    }
}
