public import Foundation
public import MVCModel
import MVCObservation
public import MVCPersistence
public import MVCTracing

/// An element whose list is saved as one document file, in a format of its own.
public protocol DocumentListElement: ListElement, Codable {
    /// The document's format: its versions, migrations and rules.
    static var documentFormat: FileFormat<[Self]> { get }
}

extension ListStore where Element: DocumentListElement {
    /// Opens the list saved at `url` (an empty list if there is no file yet), with a saver that
    /// writes every change back to it and merges what other processes save.
    ///
    /// - Parameters:
    ///   - url: The document file (a symbolic link is followed).
    ///   - delay: How long the saver waits after a change for more changes.
    ///   - clock: The clock the saver's delay and the watch interval are measured on; tests pass
    ///     one they advance by hand.
    ///   - watchInterval: How often to look for another process's save, to show it without
    ///     waiting for this process's next save; `nil` looks only when saving.
    ///   - tracer: Told each hop the store and the saver make.
    /// - Returns: The store and its saver; call the saver's `flush()` before exiting.
    ///
    /// The store's edits reach the saver through a ``DocumentPersistence``; another process's
    /// save reaches the store through the saver's `reconcile`, which merges it in.
    /// - Throws: `PersistenceError` if the file exists but cannot be loaded, or breaks the
    ///   model's rules; nothing is written.
    public static func open(
        at url: URL,
        delay: Duration = .milliseconds(300),
        clock: any Clock<Duration> = ContinuousClock(),
        watchInterval: Duration? = nil,
        tracer: HopTracer = .disabled
    ) async throws(PersistenceError) -> (store: ListStore, saver: CoalescingSaver<[Element]>) {
        let file = DocumentFile(url: url, format: Element.documentFormat)
        let snapshot = try await file.readSnapshot()
        let saver = CoalescingSaver(
            file: file, snapshot: snapshot, delay: delay, clock: clock, tracer: tracer,
            merge: ListMerge.merge)
        let elements = snapshot.document ?? []
        let list = await Task.detached { EditableList(elements) }.value
        let store = ListStore(list, persistence: DocumentPersistence(saver: saver), tracer: tracer)
        saver.reconcile = { [weak store] base, fileVersion, notices in
            await store?.takeIn(base: base, fileVersion: fileVersion, notices: notices)
                ?? fileVersion
        }
        saver.notify = { [weak store] message in store?.post(message) }
        if let watchInterval { saver.watch(every: watchInterval) }
        return (store, saver)
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
    ///   - base: The version this store and the file last agreed on.
    ///   - fileVersion: The list in the file now.
    ///   - notices: Conflicts already resolved on the way (by the save that merged).
    /// - Returns: The store's list afterwards, with its own unsaved edits.
    func takeIn(base: [Element]?, fileVersion: [Element], notices: [String]) async -> [Element] {
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
            for change in changes { publish(change) }
            for message in notices + mergeNotices { post(message) }
            // The file's own array when the list is what the file holds (compared above, off the
            // main actor): the saver's check for something left to write is then O(1).
            return isFileVersion ? fileVersion : list.elements
        }
    }

    /// Publishes `message` as the store's newest notice.
    func post(_ message: String) {
        noticeCount += 1
        noticeProperty.value = ListStoreNotice(sequenceNumber: noticeCount, message: message)
    }
}

extension ListSavingState {
    init(_ status: SaveStatus) {
        switch status {
        case .saved: self = .saved
        case .pending: self = .pending
        case .unconfirmed(let reason):
            self = .unconfirmed(
                message: "the last save was written but not confirmed on disk: \(reason)")
        case .failed(let error, let attempts):
            self = .failed(message: error.description, attempts: attempts)
        }
    }
}
