public import MVCModel
public import MVCStore

/// Saves a new attraction by adding it to the store.
@MainActor
public final class CreateAttractionDelegate: AttractionEditorDelegate {
    private let store: AttractionStore
    private let report: @MainActor (String) -> Void
    /// The blank attraction to open the editor with; its id is the one the new attraction gets.
    public let newAttraction: Attraction

    /// Creates a delegate that adds to `store`.
    ///
    /// - Parameters:
    ///   - store: Where a saved attraction is added, at the end of the list.
    ///   - report: Told, in a few words, what the delegate asks of the store (for tracing).
    public init(store: AttractionStore, report: @escaping @MainActor (String) -> Void = { _ in }) {
        self.store = store
        self.report = report
        self.newAttraction = Attraction(name: "")
    }

    /// Adds `attraction` at the end of the list.
    ///
    /// - Throws: `AttractionStoreError.duplicateAttraction(_:)` if it was saved already.
    public func saveAttraction(_ attraction: Attraction) throws(AttractionStoreError) {
        report("add(“\(attraction.name)”)")
        try store.add(attraction)
    }
}
