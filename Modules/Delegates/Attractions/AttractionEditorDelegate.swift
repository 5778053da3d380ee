public import MVCModel

/// What an attraction editor tells whoever asked it to edit: save this, or never mind.
///
/// The editor (`AttractionDetailPresenter` in MVCPresenter) knows only this protocol: not the
/// store, not whether the attraction is new or an existing one. That is the delegate's business.
///
/// ``saveAttraction(_:)`` is required and may fail; the editor stays open and shows the error.
/// ``cancelEditing()`` has a default implementation that does nothing, so a delegate that does not
/// care writes nothing, and one that does is always called: the compiler dispatches the call, so
/// there is no run-time "does it respond?" check to get wrong.
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

extension AttractionEditorDelegate {
    /// Does nothing: most delegates have nothing to undo when an edit is abandoned.
    public func cancelEditing() {}
}
