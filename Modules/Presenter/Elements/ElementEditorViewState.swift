/// What the element editor shows: each field as typed, what is wrong with it, and whether the
/// draft can be saved.
///
/// The fields are those `Element.fields` describes, in its order: a field added there shows
/// up here, and in every editor drawn from this view-state, without a change to the editor.
public struct ElementEditorViewState: Equatable, Sendable {
    /// Where the edit stands.
    public enum Phase: Equatable, Sendable {
        /// The user is editing.
        case editing
        /// The edit was saved; the editor can close.
        case saved
        /// The edit was abandoned; the editor can close.
        case cancelled
    }

    /// One field of the editor.
    public struct Field: Equatable, Sendable {
        /// The field's name: "name", "notes".
        public var name: String
        /// The text as typed.
        public var text: String
        /// What is wrong with it, if anything.
        public var message: String?

        /// Creates a field's view-state.
        public init(name: String, text: String, message: String? = nil) {
            self.name = name
            self.text = text
            self.message = message
        }
    }

    /// The fields, in the order the model describes them.
    public var fields: [Field]
    /// Whether the draft is valid, so Save can be pressed.
    public var isSaveEnabled: Bool
    /// Why the last save failed, if it did.
    public var saveError: String?
    /// Where the edit stands.
    public var phase: Phase

    /// Creates the editor's view-state.
    public init(
        fields: [Field],
        isSaveEnabled: Bool,
        saveError: String? = nil,
        phase: Phase = .editing
    ) {
        self.fields = fields
        self.isSaveEnabled = isSaveEnabled
        self.saveError = saveError
        self.phase = phase
    }

    /// The field called `name`, if the editor has one; setting it replaces that field.
    public subscript(field name: String) -> Field? {
        get { fields.first { $0.name == name } }
        set {
            guard let newValue, let index = fields.firstIndex(where: { $0.name == name }) else {
                return
            }
            fields[index] = newValue
        }
    }
}
