public import MVCElements

/// What an element editor tells whoever asked it to edit: save this, or never mind.
///
/// The editor (`ElementEditorPresenter` in MVCPresenter) knows only this protocol: not the
/// store, not whether the element is new or an existing one. That is the delegate's business.
///
/// Both methods are requirements, with no default implementation. ``saveElement(_:)`` may fail
/// (the editor stays open and shows why). ``cancelEditing()`` is written even by a delegate with
/// nothing to undo: with a default, a misspelt one (`cancelEditting()`) would compile and never
/// be called, post 004's silent bug moved to the delegate's side; without, it does not compile.
@MainActor
public protocol ElementEditorDelegate<Element>: AnyObject {
    /// What the editor edits: an attraction, in the attractions sample.
    associatedtype Element: ListElement

    /// The user saved a valid element; keep it.
    ///
    /// - Parameter element: The edited element, validated, with the id it was opened with.
    /// - Throws: ``ElementEditorError`` if it cannot be kept; the editor shows the message.
    func saveElement(_ element: Element) throws(ElementEditorError<Element>)

    /// The user abandoned the edit; nothing was saved.
    func cancelEditing()
}
