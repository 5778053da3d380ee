import MVCElements

/// Undo and redo: each edit is taken back by id, and one another process overwrote since is
/// refused rather than undone over its edit.
extension ListStore {
    /// What ``undo()`` would undo, as a menu would label it ("Delete “Louvre”"), if anything.
    public var undoLabel: String? { history.undoLabel }
    /// What ``redo()`` would redo, as a menu would label it, if anything.
    public var redoLabel: String? { history.redoLabel }

    /// Undoes the most recent edit not yet undone.
    ///
    /// - Throws: ``ListStoreError/nothingToUndo``; or ``ListStoreError/changedElsewhere(_:)`` if
    ///   another process's save removed what the edit was about (or brought back what it
    ///   removed, or changed a field it set): that edit is dropped from the history.
    public func undo() throws(ListStoreError<Element>) {
        guard let entry = history.takeUndo() else { throw .nothingToUndo }
        guard !overwritesElsewhere(entry.edit.inverse), perform(entry.edit.inverse, title: nil)
        else {
            history.dropRedo()
            throw .changedElsewhere(entry.label)
        }
    }

    /// Redoes the most recently undone edit.
    ///
    /// - Throws: ``ListStoreError/nothingToRedo``; or ``ListStoreError/changedElsewhere(_:)``, as
    ///   for ``undo()``.
    public func redo() throws(ListStoreError<Element>) {
        guard let entry = history.takeRedo() else { throw .nothingToRedo }
        guard !overwritesElsewhere(entry.edit), perform(entry.edit, title: nil) else {
            history.dropUndo()
            throw .changedElsewhere(entry.label)
        }
    }

    /// Whether `edit`, an undo or a redo, would set a field that no longer holds what this
    /// process left there: another process changed it since, and it is not this one's to take
    /// back (the fields the edit did not touch are kept, as for any edit).
    private func overwritesElsewhere(_ edit: ListEdit<Element>) -> Bool {
        guard case .replace(let expected, let target) = edit,
            let current = element(withID: expected.id)
        else { return false }
        return target.fieldsChanged(from: expected).contains { !$0.isEqual(current, expected) }
    }

    /// Names each element in `renamed` by its new title in the Undo and Redo labels: another
    /// process renamed it, and a label names an element as the list calls it now (the edit
    /// itself finds its element by id, whatever its name).
    ///
    /// - Complexity: O(*h*) for *h* entries in the history, once for any number of renames.
    func relabelHistory(_ renamed: [Element.ID: String]) {
        guard !renamed.isEmpty, undoLabel != nil || redoLabel != nil else { return }
        history.relabel { entry in renamed[entry.edit.elementID].map(entry.edit.label(title:)) }
    }
}
