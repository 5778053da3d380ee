public import MVCElements
public import MVCListStore
public import MVCTracing

/// Saves a new element by adding it to the store.
@MainActor
public final class CreateElementDelegate<Element: ListElement>: ElementEditorDelegate {
    private let store: ListStore<Element>
    private let tracer: HopTracer
    /// The blank element to open the editor with; its id is the one the new element gets.
    public let newElement: Element

    /// Creates a delegate that adds to `store`.
    ///
    /// - Parameters:
    ///   - store: Where a saved element is added, at the end of the list.
    ///   - newElement: The blank element the editor opens with, its id the new element's.
    ///   - tracer: Told what the delegate asks of the store.
    public init(store: ListStore<Element>, newElement: Element, tracer: HopTracer = .disabled) {
        self.store = store
        self.tracer = tracer
        self.newElement = newElement
    }

    /// Adds `element` at the end of the list.
    ///
    /// - Throws: ``ElementEditorError/alreadySaved`` if it was saved already.
    public func saveElement(_ element: Element) throws(ElementEditorError<Element>) {
        tracer.record(from: .delegate, to: .store, "add(“\(element.title)”)")
        do {
            try store.add(element)
        } catch {
            throw ElementEditorError(error)
        }
    }

    /// Does nothing: an abandoned edit left the store as it was.
    public func cancelEditing() {}
}
