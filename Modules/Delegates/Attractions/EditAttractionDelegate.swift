public import MVCModel
public import MVCStore

/// Saves an edited attraction by replacing the one it was made for, wherever it now is.
@MainActor
public final class EditAttractionDelegate: AttractionEditorDelegate {
    private let store: AttractionStore
    private let report: @MainActor (String) -> Void
    /// The attraction as it was when editing began.
    public let original: Attraction

    /// Creates a delegate that replaces `original` in `store`.
    ///
    /// - Parameters:
    ///   - original: The attraction being edited.
    ///   - store: The store that holds it.
    ///   - report: Told, in a few words, what the delegate asks of the store (for tracing).
    public init(
        editing original: Attraction,
        in store: AttractionStore,
        report: @escaping @MainActor (String) -> Void = { _ in }
    ) {
        self.store = store
        self.report = report
        self.original = original
    }

    /// Replaces the original by `attraction`, found by id, so a reordered list is no problem.
    ///
    /// - Throws: `AttractionStoreError.unknownAttraction(_:)` if it was deleted meanwhile.
    public func saveAttraction(_ attraction: Attraction) throws(AttractionStoreError) {
        report("replace(“\(original.name)”, with: “\(attraction.name)”)")
        try store.replace(original.id, with: attraction)
    }
}
