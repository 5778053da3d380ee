/// The undo and redo stacks of an editor: pure bookkeeping, no effects.
///
/// Each entry is an edit and the label a menu shows for it ("Undo Delete “Louvre”").
/// Recording a new edit clears the redo stack, as in every editor.
public struct UndoHistory<Edit: Sendable>: Sendable {
    /// One recorded edit and its label.
    public struct Entry: Sendable {
        /// The edit as it was made.
        public var edit: Edit
        /// What a menu calls it: "Delete “Louvre”".
        public var label: String
    }

    fileprivate var undoStack: [Entry] = []
    fileprivate var redoStack: [Entry] = []

    /// Creates an empty history.
    public init() {}

    // Read in place: `last?.label` would copy the whole entry, edit included, on every change.

    /// The label of the edit ``takeUndo()`` would return, if any.
    public var undoLabel: String? { undoStack.isEmpty ? nil : undoStack[undoStack.count - 1].label }
    /// The label of the edit ``takeRedo()`` would return, if any.
    public var redoLabel: String? { redoStack.isEmpty ? nil : redoStack[redoStack.count - 1].label }

    /// Records an edit the user just made; the redo stack is cleared.
    public mutating func record(_ edit: Edit, label: String) {
        undoStack.append(Entry(edit: edit, label: label))
        redoStack.removeAll()
    }

    /// Takes the most recent edit to undo it, moving it to the redo stack.
    public mutating func takeUndo() -> Entry? {
        guard let entry = undoStack.popLast() else { return nil }
        redoStack.append(entry)
        return entry
    }

    /// Takes the most recently undone edit to redo it, moving it back to the undo stack.
    public mutating func takeRedo() -> Entry? {
        guard let entry = redoStack.popLast() else { return nil }
        undoStack.append(entry)
        return entry
    }
}

extension UndoHistory {
    /// Forgets the edit ``takeUndo()`` just moved to the redo stack, when it could not be undone.
    mutating func dropRedo() {
        _ = redoStack.popLast()
    }

    /// Gives each entry the label `label` makes of it, where it makes one (the element an edit
    /// is about was renamed elsewhere).
    ///
    /// - Complexity: O(*n*) for *n* entries.
    mutating func relabel(_ label: (Entry) -> String?) {
        for index in undoStack.indices {
            if let new = label(undoStack[index]) { undoStack[index].label = new }
        }
        for index in redoStack.indices {
            if let new = label(redoStack[index]) { redoStack[index].label = new }
        }
    }

    /// Forgets the edit ``takeRedo()`` just moved to the undo stack, when it could not be redone.
    mutating func dropUndo() {
        _ = undoStack.popLast()
    }
}
