public import MVCModel
public import MVCStore

/// Saves a new attraction by adding it to the store.
@MainActor
public final class CreateAttractionDelegate: AttractionEditorDelegate {
    private let store: AttractionStore
    /// The blank attraction to open the editor with; its id is the one the new attraction gets.
    public let newAttraction: Attraction

    /// Creates a delegate that adds to `store`.
    ///
    /// - Parameter store: Where a saved attraction is added, at the end of the list.
    public init(store: AttractionStore) {
        self.store = store
        self.newAttraction = Attraction(name: "")
    }

    /// Adds `attraction` at the end of the list.
    ///
    /// - Throws: ``AttractionStoreError/duplicateAttraction(_:)`` if it was saved already.
    public func saveAttraction(_ attraction: Attraction) throws(AttractionStoreError) {
        try store.add(attraction)
    }
}
