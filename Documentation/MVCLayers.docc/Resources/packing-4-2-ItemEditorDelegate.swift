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
