public import MVCModel
public import MVCStore
public import MVCTracing

/// Saves a new attraction by adding it to the store.
@MainActor
public final class CreateAttractionDelegate: AttractionEditorDelegate {
    private let store: AttractionStore
    private let tracer: HopTracer
    /// The blank attraction to open the editor with; its id is the one the new attraction gets.
    public let newAttraction: Attraction

    /// Creates a delegate that adds to `store`.
    ///
    /// - Parameters:
    ///   - store: Where a saved attraction is added, at the end of the list.
    ///   - tracer: Told what the delegate asks of the store.
    public init(store: AttractionStore, tracer: HopTracer = .disabled) {
        self.store = store
        self.tracer = tracer
        self.newAttraction = Attraction(name: "")
    }

    /// Adds `attraction` at the end of the list.
    ///
    /// - Throws: ``AttractionEditorError/alreadySaved`` if it was saved already.
    public func saveAttraction(_ attraction: Attraction) throws(AttractionEditorError) {
        tracer.record(from: .delegate, to: .store, "add(“\(attraction.name)”)")
        do {
            try store.add(attraction)
        } catch {
            throw AttractionEditorError(error)
        }
    }

    /// Does nothing: an abandoned edit left the store as it was.
    public func cancelEditing() {}
}
