import MVCModel

extension ListStore {
    /// The position of the element with `id`, if it is in the list.
    ///
    /// - Complexity: O(1), or O(*n*) for the first lookup after an insert, removal or move.
    public func position(of id: Element.ID) -> Int? {
        list.index(of: id)
    }

    /// Applies edits made elsewhere (another process's, read back by a persistence), each
    /// published as an ordinary update: they are not recorded for undo, and not handed back to
    /// persistence, which already has them.
    ///
    /// An edit that no longer fits the list (its element is gone, an insert's id is already
    /// listed) is skipped. Undo and redo stay right afterwards, since they find their element by
    /// id.
    ///
    /// - Returns: The changes applied, in order.
    @discardableResult
    public func takeIn(_ edits: [ListEdit<Element>]) -> [ListChange<Element>] {
        var applied: [ListChange<Element>] = []
        for edit in edits {
            guard let change = list.apply(edit) else { continue }
            publish(change)
            applied.append(change)
        }
        return applied
    }

    /// Publishes `message` as the store's newest ``notice``: a conflict resolved, or a row of
    /// another process's that could not be taken in.
    public func postNotice(_ message: String) {
        post(message)
    }
}
