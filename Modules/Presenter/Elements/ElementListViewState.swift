public import MVCElements

/// What the list of elements shows: the rows, the Undo and Redo commands, and the last error.
public struct ElementListViewState<Element: ListElement>: Equatable, Sendable {
    /// One element, as a row shows it.
    public struct Row: Equatable, Sendable, Identifiable {
        /// Identifies the element the row shows.
        public var id: String
        /// The element's name.
        public var name: String
        /// What the row shows after the name: each field described as listed, in order (the
        /// notes, unless empty).
        public var parts: [String]

        /// Creates a row.
        public init(id: String, name: String, parts: [String]) {
            self.id = id
            self.name = name
            self.parts = parts
        }
    }

    /// A menu command: its title and whether it can be chosen.
    public struct Command: Equatable, Sendable {
        /// What the menu says: "Undo Delete “Louvre”".
        public var title: String
        /// Whether the command can be chosen now.
        public var isEnabled: Bool

        /// Creates a command.
        public init(title: String, isEnabled: Bool) {
            self.title = title
            self.isEnabled = isEnabled
        }
    }

    /// The elements, in the user's order.
    public var rows: [Row]
    /// Undo, with the label of what it would undo.
    public var undo: Command
    /// Redo, with the label of what it would redo.
    public var redo: Command
    /// Why the last thing the user tried failed; `nil` after a success.
    public var lastError: String?
    /// What is wrong with saving, as a sentence, for as long as it is: "not saved: …" while writes
    /// fail (an edit does not clear it, only a successful write does, and a repeated failure says
    /// how many times it failed), or that the last write could not be confirmed on disk.
    public var saveProblem: String?
    /// The latest notice (a conflict resolved while taking in another process's save), until the
    /// list next changes: said once, not on every later screen.
    public var notice: String?
    /// Whether an edit shown is not yet in the file (the document's autosave delay, a database's
    /// write under way): a screen marks it, as a document window's "Edited" does, until saved.
    public var isSavePending = false

    /// Creates the list's view-state.
    public init(
        rows: [Row], undo: Command, redo: Command, lastError: String? = nil,
        saveProblem: String? = nil, notice: String? = nil
    ) {
        self.rows = rows
        self.undo = undo
        self.redo = redo
        self.lastError = lastError
        self.saveProblem = saveProblem
        self.notice = notice
    }

    /// What an empty list says instead of rows; `nil` when there are rows.
    public var emptyMessage: String? {
        rows.isEmpty ? "No \(Element.pluralNoun) yet." : nil
    }
}
