import MVCElements
import MVCObservation
import MVCTracing

extension ListStore {
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
        apply(elsewhere: edits)
    }

    /// Applies edits made elsewhere, in order, publishing each as it is applied (a subscriber
    /// that edits as it hears one finds the list as that change left it).
    ///
    /// - Returns: The changes applied, in order.
    @discardableResult
    private func apply(elsewhere edits: [ListEdit<Element>]) -> [ListChange<Element>] {
        var applied: [ListChange<Element>] = []
        for edit in edits {
            guard let change = list.apply(edit) else { continue }
            publish(elsewhere: [change])
            applied.append(change)
        }
        return applied
    }

    /// Publishes changes taken in from elsewhere, once the Undo and Redo labels name each element
    /// they carry as it is called now (renamed there, or brought back): one pass over the
    /// history for the changes given, none while it is empty.
    func publish(elsewhere changes: [ListChange<Element>]) {
        var titles: [Element.ID: String] = [:]
        for change in changes {
            switch change {
            case .inserted(let element, _), .replaced(_, let element, _):
                titles[element.id] = element.title
            case .removed, .moved:
                break
            }
        }
        relabelHistory(titles)
        for change in changes { publish(change) }
    }

    /// Takes in rows another process changed and deleted, read from a store that keeps a row per
    /// element.
    ///
    /// Each changed element replaces this list's version of it and goes right after the first of
    /// `predecessors` (the ids before it there, nearest first) that this list has, or at the top
    /// if it has none; each deleted one is removed, and named in a notice. Each is published as
    /// an ordinary update, not recorded for undo, not handed back to persistence.
    ///
    /// No merge happens: the caller hands in what is stored, once every edit of this process is
    /// written (each merged with the stored row by ``ElementMerge``).
    ///
    /// - Returns: `false` if a row could not be placed (this list has none of the ids named
    ///   before it): the rows before it were taken in, and the caller reads the whole list.
    /// - Complexity: O(*k*) lookups for *k* rows, each O(1) but the first after an insert, removal
    ///   or move.
    public func takeIn(
        changed: [(element: Element, predecessors: [Element.ID])], deleted: [Element.ID]
    ) -> Bool {
        tracer.record(
            from: .persistence, to: .store,
            "take in another process's commit (\(Element.counted(changed.count)) changed, \(deleted.count) deleted)"
        )
        var titles: [String] = []
        // The deletions told, whether every row found its place or not.
        defer { if !titles.isEmpty { post(MergeNotice.deletedThere(titles)) } }
        for id in deleted {
            guard let position = position(of: id) else { continue }
            let element = list.elements[position]
            apply(elsewhere: [.remove(element, at: position)])
            titles.append(element.title)
        }
        for (element, predecessors) in changed {
            let previous = predecessors.lazy.compactMap { self.position(of: $0) }.first
            if previous == nil, !predecessors.isEmpty { return false }
            let after = previous ?? -1
            guard let position = position(of: element.id) else {
                apply(elsewhere: [.insert(element, at: after + 1)])
                continue
            }
            let destination = position < after ? after : after + 1
            if destination != position {
                let move = ListEdit<Element>.move(element.id, from: position, to: destination)
                apply(elsewhere: [move])
            }
            let current = list.elements[destination]
            if current != element {
                apply(elsewhere: [.replace(old: current, new: element)])
            }
        }
        return true
    }

    /// Publishes `message` as the store's newest ``notice``: a conflict resolved, or a row of
    /// another process's that could not be taken in.
    public func postNotice(_ message: String) {
        post(message)
    }
}

extension ListStore {
    /// Takes in the list another process saved: merges it with this store's list against the
    /// version both started from, and publishes the difference as ordinary updates.
    ///
    /// The merge, the difference and the new list are all worked out off the main actor (for a
    /// long list they take a while); the main actor only swaps the list in and publishes the
    /// changes. If the user edits meanwhile, the merge is done again with that edit in it.
    ///
    /// - Parameters:
    ///   - base: The version to merge against: the one this store and the file last agreed on
    ///     (the file's own, for an older copy, so that nothing it lacks is deleted; `nil` for a
    ///     version that did not come from this one).
    ///   - fileVersion: The list in the file now.
    ///   - notices: Conflicts already resolved on the way (by the save that merged).
    /// - Returns: The store's list afterwards, with its own unsaved edits.
    public func takeIn(base: [Element]?, fileVersion: [Element], notices: [String]) async
        -> [Element]
    {
        tracer.record(
            from: .persistence, to: .store,
            "merge another process's save (\(Element.counted(fileVersion.count)))")
        while true {
            let before = list
            let (after, changes, mergeNotices, isFileVersion) = await Task.detached(
                priority: .userInitiated
            ) {
                let merge = ListMerge.merge(base: base, ours: before.elements, theirs: fileVersion)
                var after = before
                // Indexed here, off the main actor, if it was opened unindexed.
                after.indexIDs()
                var changes: [ListChange<Element>] = []
                for edit in ListDifference.changes(from: before.elements, to: merge.document) {
                    if let change = after.apply(edit) { changes.append(change) }
                }
                return (after, changes, merge.notices, after.elements == fileVersion)
            }.value
            // Unchanged since the merge began: the same buffer, so this is O(1).
            guard list == before else { continue }
            list = after
            // The list it replaces is let go off the main actor: freeing a long list's values
            // one by one takes a while.
            Task.detached(priority: .background) { withExtendedLifetime(before) {} }
            publish(elsewhere: changes)
            // A save that merged already told what this merge tells again (a row deleted there).
            for message in notices + mergeNotices.filter({ !notices.contains($0) }) {
                post(message)
            }
            // The file's own array when the list is what the file holds (compared above, off the
            // main actor): the saver's check for something left to write is then O(1). Unless a
            // subscriber edited the list while it was told (the same buffer is O(1) to compare):
            // that edit is the owner's, and must be written.
            return isFileVersion && list == after ? fileVersion : list.elements
        }
    }

    /// Publishes `message` as the store's newest notice.
    func post(_ message: String) {
        noticeCount += 1
        noticeProperty.value = ListStoreNotice(sequenceNumber: noticeCount, message: message)
    }
}
