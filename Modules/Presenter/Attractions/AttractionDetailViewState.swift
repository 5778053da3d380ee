/// What the attraction editor shows: the draft, what is wrong with it, and whether it can be saved.
public struct AttractionDetailViewState: Equatable, Sendable {
    /// Where the edit stands.
    public enum Phase: Equatable, Sendable {
        /// The user is editing.
        case editing
        /// The edit was saved; the editor can close.
        case saved
        /// The edit was abandoned; the editor can close.
        case cancelled
    }

    /// The name as typed.
    public var name: String
    /// The notes as typed.
    public var notes: String
    /// What is wrong with the name, if anything.
    public var nameMessage: String?
    /// What is wrong with the notes, if anything.
    public var notesMessage: String?
    /// Whether the draft is valid, so Save can be pressed.
    public var isSaveEnabled: Bool
    /// Why the last save failed, if it did.
    public var saveError: String?
    /// Where the edit stands.
    public var phase: Phase

    /// Creates the editor's view-state.
    public init(
        name: String,
        notes: String,
        nameMessage: String? = nil,
        notesMessage: String? = nil,
        isSaveEnabled: Bool,
        saveError: String? = nil,
        phase: Phase = .editing
    ) {
        self.name = name
        self.notes = notes
        self.nameMessage = nameMessage
        self.notesMessage = notesMessage
        self.isSaveEnabled = isSaveEnabled
        self.saveError = saveError
        self.phase = phase
    }
}
