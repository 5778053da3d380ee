import Foundation
public import MVCListStore

/// Saving a document that several processes may have open: under the document's lock, a save
/// compares the file with the ``DocumentSnapshot`` this process last read or wrote, and merges
/// what another process saved since (see <doc:PersistenceInDepth>, "Several processes on one
/// file").
extension DocumentFile {
    /// Merges three versions of a document: what both sides started from (`nil` if there was no
    /// file), this process's version, and the file's.
    public typealias Merge =
        @Sendable (_ base: Document?, _ ours: Document, _ theirs: Document) -> MergeResult<Document>

    /// Reads the file as it is now.
    ///
    /// - Returns: The snapshot (``DocumentSnapshot/missing`` if there is no file).
    /// - Throws: ``/MVCListStore/PersistenceError``; the file is left untouched.
    @concurrent
    public func readSnapshot() async throws(PersistenceError) -> DocumentSnapshot<Document> {
        try await BlockingFileWork.run { () throws(PersistenceError) in
            let identity = try AtomicFile.identity(of: url)
            guard let bytes = try AtomicFile.read(url) else { return .missing }
            let (document, history) = try decodeWithHistory(bytes)
            return DocumentSnapshot(
                document: document, bytes: [UInt8](bytes), identity: identity, history: history)
        }
    }

    /// Looks whether the file changed since `snapshot`.
    ///
    /// Cheap when nothing changed: the file's identity (device, inode, size, modification and
    /// status-change times) is compared first, and the bytes are read only when it differs. A
    /// file touched, or saved again with the same bytes, is ``FileCheck/unchanged(_:reread:)`` with the
    /// new identity, so the next check is cheap again.
    ///
    /// The limit of that promise: another program that writes the file in place with the same
    /// number of bytes, within one tick of the file system's timestamps after this program's
    /// last save or check, and so leaves every part of the identity as it was, is not seen
    /// until the file next changes. The tick is the kernel's coarse clock on Linux (a few
    /// milliseconds), one or two seconds on FAT and some network file systems. Such a program
    /// bypasses the document's lock, which every save of this package takes.
    ///
    /// - Throws: ``/MVCListStore/PersistenceError`` if the changed file cannot be read or decoded.
    @concurrent
    public func check(against snapshot: DocumentSnapshot<Document>)
        async throws(PersistenceError) -> FileCheck<Document>
    {
        try await BlockingFileWork.run { () throws(PersistenceError) -> FileCheck<Document> in
            let identity = try AtomicFile.identity(of: url)
            // A snapshot without an identity (one its save could not trust) is always read.
            if identity == snapshot.identity, identity != nil || snapshot.bytes == nil {
                return .unchanged(snapshot, reread: false)
            }
            guard let bytes = try AtomicFile.read(url) else {
                return snapshot.bytes == nil ? .unchanged(snapshot, reread: false) : .deleted
            }
            if snapshot.holds(bytes) {
                return .unchanged(snapshot.with(identity: identity), reread: true)
            }
            let (document, history) = try decodeWithHistory(bytes)
            return .changed(
                DocumentSnapshot(
                    document: document, bytes: [UInt8](bytes), identity: identity,
                    history: history))
        }
    }

    /// Writes `document` without overwriting what another process saved since `base`.
    ///
    /// - Parameters:
    ///   - document: This process's version.
    ///   - base: The snapshot this process last read or wrote.
    ///   - merge: Combines the three versions when the file changed since `base`.
    /// - Returns: What was written, and the merge if there was one.
    /// - Throws: ``/MVCListStore/PersistenceError``: the file could not be locked, read, decoded or written, and
    ///   it is unchanged; or, rarely, the new file is in place but its folder could not be flushed.
    @concurrent
    public func save(
        _ document: Document, over base: DocumentSnapshot<Document>, merge: @escaping Merge
    ) async throws(PersistenceError) -> SaveOutcome<Document> {
        // Blocks its thread while it waits for the lock.
        try await BlockingFileWork.run { () throws(PersistenceError) in
            try underLock { held, _ throws(PersistenceError) -> SaveOutcome<Document> in
                let onDisk = try AtomicFile.read(url)
                var merged: MergeResult<Document>?
                var written = document
                // What the written version came after: the file it replaces, and what this
                // process knows.
                var replaced = base.history
                if let onDisk, !base.holds(onDisk) {
                    let theirs = try decodeWithHistory(onDisk)
                    let lineage = base.lineage(of: theirs.history)
                    var result = merge(
                        lineage.mergeBase(last: base.document, file: theirs.document), document,
                        theirs.document)
                    result.notices = lineage.notices + result.notices
                    merged = result
                    written = result.document
                    replaced = theirs.history
                }
                let cameAfter = Self.cameAfter(replacing: replaced, knowing: base)
                let history = cameAfter.savedAgain()
                let bytes = try encode(written, history: history)
                var wrote: FileIdentity?
                let durability = try AtomicFile.write(
                    bytes, to: url, steps: replacementSteps,
                    confirmLock: { held.confirm { isUnchanged(since: onDisk) } },
                    wrote: { wrote = $0 })
                // Taken after the rename (which moves the status-change time), and trusted only if
                // it is still the file this save wrote, as it wrote it: another program's write
                // landing in between would otherwise be taken for this one's, and never read. Not
                // trusted, the next check reads the file and compares.
                let identity = (try? AtomicFile.identity(of: url)).flatMap {
                    $0.size == Int64(bytes.count) && wrote?.isSameWrite(as: $0) == true ? $0 : nil
                }
                let snapshot = DocumentSnapshot(
                    document: written, bytes: [UInt8](bytes), identity: identity,
                    history: history, lineage: history.followed(by: cameAfter))
                return SaveOutcome(
                    snapshot: snapshot, merged: merged, durability: durability,
                    recreatedDeletedFile: onDisk == nil && base.bytes != nil)
            }
        }
    }

    /// The saves a version written over a file whose saves are `replaced` came after, by a
    /// process whose base is `base`: first the replaced file's newest save and this process's,
    /// so that whoever last saw either finds it named; then the saves most recently made: the
    /// file's, unless they do not reach this process's newest (an older copy, a version from
    /// elsewhere), which is then the more recent line.
    private static func cameAfter(
        replacing replaced: SaveHistory, knowing base: DocumentSnapshot<Document>
    ) -> SaveHistory {
        let newest = SaveHistory([replaced.newest, base.lineage.newest].compactMap { $0 })
        let oursFirst = base.lineage.newest.map { !replaced.saves.contains($0) } ?? false
        let (first, then) = oursFirst ? (base.lineage, replaced) : (replaced, base.lineage)
        return newest.followed(by: first).followed(by: then)
    }

    /// Whether the file still holds `bytes` (`nil`: there is still no file).
    private func isUnchanged(since bytes: Data?) -> Bool {
        Result { () throws(PersistenceError) in try AtomicFile.read(url) } == .success(bytes)
    }
}
