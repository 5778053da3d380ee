public import MVCModel

/// What an attraction editor tells whoever asked it to edit: save this, or never mind.
///
/// The editor (`AttractionDetailPresenter` in MVCPresenter) knows only this protocol: not the
/// store, not whether the attraction is new or an existing one. That is the delegate's business.
///
/// Both methods are requirements, with no default implementation. ``saveAttraction(_:)`` may
/// fail; the editor stays open and shows the error. ``cancelEditing()`` must be written even by a
/// delegate with nothing to undo (an empty body says so): with a default, a delegate that
/// misspelt it (`cancelEditting()`) would compile and never be called, post 004's silent bug
/// moved to the delegate's side. Without one, the misspelling is a compile error, and the call is
/// dispatched by the compiler, so there is no run-time "does it respond?" check to get wrong.
@MainActor
public protocol AttractionEditorDelegate: AnyObject {
    /// The user saved a valid attraction; keep it.
    ///
    /// - Parameter attraction: The edited attraction, validated, with the id it was opened with.
    /// - Throws: ``AttractionEditorError`` if it cannot be kept; the editor shows the message.
    func saveAttraction(_ attraction: Attraction) throws(AttractionEditorError)

    /// The user abandoned the edit; nothing was saved.
    func cancelEditing()
}
