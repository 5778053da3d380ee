import MVCListStore

/// Why a delegate could not keep what the editor saved.
public struct ItemEditorError: Error, Equatable, CustomStringConvertible {
    /// Why, in words a user can act on.
    public let description: String
}

/// What an item editor tells whoever opened it.
///
/// The editor knows only this protocol: not the store, and not whether it creates an item or
/// edits one.
@MainActor
public protocol ItemEditorDelegate: AnyObject {
    /// Keeps the item the editor saved, or says why it cannot.
    func saveItem(_ item: Item) throws(ItemEditorError)
    /// The user cancelled: nothing was saved.
    func cancelEditing()
}

/// Saving adds the item to the store.
@MainActor
public final class AddItemDelegate: ItemEditorDelegate {
    private let store: ListStore<Item>

    /// A delegate that adds to `store`.
    public init(store: ListStore<Item>) { self.store = store }

    /// Adds the item the editor saved.
    public func saveItem(_ item: Item) throws(ItemEditorError) {
        do { try store.add(item) } catch { throw ItemEditorError(description: error.description) }
    }
    /// Nothing was added, so there is nothing to undo.
    public func cancelEditing() {}
}

/// Saving applies the editor's changes to the item it was opened on, wherever it now is.
@MainActor
final class EditItemDelegate: ItemEditorDelegate {
    private let store: ListStore<Item>
    private let original: Item

    init(store: ListStore<Item>, original: Item) {
        self.store = store
        self.original = original
    }

    func saveItem(_ item: Item) throws(ItemEditorError) {
        do { try store.mergeEdit(of: original, result: item) } catch {
            throw ItemEditorError(description: error.description)
        }
    }
    func cancelEditing() {}  // the item stays as it was
}
