import MVCModel
import MVCObservation
import MVCPresenter

/// What the item editor shows: each field as typed, what is wrong with it, and where the edit is.
public struct ItemEditorViewState: Equatable, Sendable {
    public struct Field: Equatable, Sendable {
        public var name: String
        public var text: String
        public var problem: String?
    }

    public var fields: [Field]
    /// Why the last Save was refused.
    public var error: String?
    public var isOpen = true
}
