public import MVCModel
public import MVCStore

/// Saves an edited attraction by replacing the one it was made for, wherever it now is.
@MainActor
public final class EditAttractionDelegate: AttractionEditorDelegate {
    private let store: AttractionStore
    /// The attraction as it was when editing began.
    public let original: Attraction

    /// Creates a delegate that replaces `original` in `store`.
    ///
    /// - Parameters:
    ///   - original: The attraction being edited.
    ///   - store: The store that holds it.
    public init(editing original: Attraction, in store: AttractionStore) {
        self.store = store
        self.original = original
    }

    /// Replaces the original by `attraction`, found by id, so a reordered list is no problem.
    ///
    /// - Throws: ``AttractionStoreError/unknownAttraction(_:)`` if it was deleted meanwhile.
    public func saveAttraction(_ attraction: Attraction) throws(AttractionStoreError) {
        try store.replace(original.id, with: attraction)
    }
}
