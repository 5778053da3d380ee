public import MVCElements
public import MVCListStore
public import MVCTracing

/// Saves an edited element by merging its changes into the one it was made for, wherever it now
/// is.
@MainActor
public final class EditElementDelegate<Element: ListElement>: ElementEditorDelegate {
    private let store: ListStore<Element>
    private let tracer: HopTracer
    /// The element as it was when editing began.
    public let original: Element

    /// Creates a delegate that merges an edit of `original` into `store`'s current version of it.
    ///
    /// - Parameters:
    ///   - original: The element being edited.
    ///   - store: The store that holds it.
    ///   - tracer: Told what the delegate asks of the store.
    public init(
        editing original: Element, in store: ListStore<Element>, tracer: HopTracer = .disabled
    ) {
        self.store = store
        self.tracer = tracer
        self.original = original
    }

    /// Merges the editor's changes into the original, found by id (`ListStore.mergeEdit(of:result:)`),
    /// so a reordered list is no problem; fields the editor did not change keep what the store
    /// holds now (another process's edit, merged in while the editor was open, is not undone), and
    /// a field both changed keeps the other change, with the store's notice naming it.
    ///
    /// - Throws: ``ElementEditorError/elementGone`` if it was deleted meanwhile.
    public func saveElement(_ element: Element) throws(ElementEditorError<Element>) {
        tracer.record(
            from: .delegate, to: .store,
            "mergeEdit(of: “\(original.title)”, result: “\(element.title)”)")
        do {
            try store.mergeEdit(of: original, result: element)
        } catch {
            throw ElementEditorError(error)
        }
    }

    /// Does nothing: an abandoned edit left the store as it was.
    public func cancelEditing() {}
}
