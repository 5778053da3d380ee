public import MVCModel
public import MVCStore
public import MVCTracing

/// Why an attraction's editor delegate could not keep it.
public typealias AttractionEditorError = ElementEditorError<Attraction>
/// Saves a new attraction by adding it to the store.
public typealias CreateAttractionDelegate = CreateElementDelegate<Attraction>
/// Saves an edited attraction by merging its changes into the one it was made for.
public typealias EditAttractionDelegate = EditElementDelegate<Attraction>

extension CreateElementDelegate where Element == Attraction {
    /// Creates a delegate that adds to `store` a new attraction, blank but for a new id.
    public convenience init(store: AttractionStore, tracer: HopTracer = .disabled) {
        self.init(store: store, newElement: Attraction(name: ""), tracer: tracer)
    }
}
