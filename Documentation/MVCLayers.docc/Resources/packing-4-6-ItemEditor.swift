import MVCElements
import MVCObservation
import MVCPresenter

/// What the item editor shows: each field as typed, what is wrong with it, and where the edit is.
public struct ItemEditorViewState: Equatable, Sendable {
    /// One field of the editor.
    public struct Field: Equatable, Sendable {
        /// The name it shows.
        public var name: String
        /// The text as typed.
        public var text: String
        /// What is wrong with it, if anything.
        public var problem: String?
    }

    /// Each field the item describes, in order.
    public var fields: [Field]
    /// Why the last Save was refused.
    public var error: String?
    /// Whether the edit is still open (not yet saved or cancelled).
    public var isOpen = true
}
