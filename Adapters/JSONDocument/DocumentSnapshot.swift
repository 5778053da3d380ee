import Foundation
public import MVCListStore

/// A document file as one process last read or wrote it: the document, and the exact bytes, so
/// that a change made by another process is recognized by content.
///
/// A snapshot is the *base* of a three-way merge: when the file no longer holds these bytes,
/// another process saved since, and this process's version is merged with the file's against
/// the snapshot's document instead of overwriting it.
public struct DocumentSnapshot<Document: Sendable>: Sendable {
    /// The document as the file held it, or `nil` when there was no file; a snapshot of a file
    /// since deleted keeps the document it held, as the base of the next merge.
    public let document: Document?
    /// The bytes the file held; `nil` when there was no file.
    ///
    /// An array rather than `Data`: `Data` keeps its storage in an enum whose payload pointers
    /// carry tag bits, which LeakSanitizer cannot follow, so a snapshot alive at exit was
    /// reported as a leak.
    let bytes: [UInt8]?
    /// The file's identity when the bytes were read or written, to skip a re-read that would
    /// find them unchanged.
    let identity: FileIdentity?
    /// The saves the file names, newest first: the one that wrote it, then those it came after.
    public let history: SaveHistory
    /// The saves this process knows its own version comes after.
    ///
    /// Those of every file it wrote or took in: a file whose newest save is one of them is an
    /// older copy put back.
    public let lineage: SaveHistory

    /// A snapshot of a file that held `bytes` (`nil`: no file), read as `document`, written by
    /// the saves in `history`, in a process that knows `lineage` too.
    package init(
        document: Document?, bytes: [UInt8]?, identity: FileIdentity? = nil,
        history: SaveHistory = SaveHistory(), lineage: SaveHistory = SaveHistory()
    ) {
        self.document = document
        self.bytes = bytes
        self.identity = identity
        self.history = history
        // The lineage's order is the caller's (the saves to keep in view first); the file's own
        // saves are part of it in any case.
        self.lineage = lineage.followed(by: history)
    }

    /// The snapshot of a file that does not exist (yet).
    public static var missing: DocumentSnapshot {
        DocumentSnapshot(document: nil, bytes: nil, identity: nil)
    }

    /// The snapshot of this document's file once it was deleted: no file, but its document and
    /// saves are still known, so that a file made again from a later version is merged against
    /// it (nothing it lacks comes back), and a copy put back is known for an older one.
    var deleted: DocumentSnapshot {
        DocumentSnapshot(
            document: document, bytes: nil, identity: nil, history: history, lineage: lineage)
    }

    /// This snapshot, knowing the saves in `lineage` too: after its own, or, for a snapshot of an
    /// older copy, before them (the saves most recently made are the ones to keep in view).
    func knowing(_ lineage: SaveHistory, first: Bool = false) -> DocumentSnapshot {
        DocumentSnapshot(
            document: document, bytes: bytes, identity: identity, history: history,
            lineage: first
                ? lineage.followed(by: self.lineage) : self.lineage.followed(by: lineage))
    }

    /// This snapshot with another identity, the same in every other way.
    func with(identity: FileIdentity?) -> DocumentSnapshot {
        DocumentSnapshot(
            document: document, bytes: bytes, identity: identity, history: history,
            lineage: lineage)
    }

    /// How a file whose saves are `file` stands to this snapshot, the version this process last
    /// read or wrote.
    ///
    /// - The same newest save (edited by hand since): ``FileLineage/later``.
    /// - A newest save this process already came after: ``FileLineage/older``, a copy put back.
    /// - One that names this snapshot's newest save, or this process's, among those it came
    ///   after: ``FileLineage/later``. So is anything else, when this snapshot names no save (no
    ///   file, or one written before saves were named).
    /// - Anything else: ``FileLineage/unrelated``, a copy edited elsewhere, another list, or a
    ///   file written before saves were named put over this one.
    public func lineage(of file: SaveHistory) -> FileLineage {
        if let theirs = file.newest {
            if theirs == history.newest { return .later }
            if lineage.saves.contains(theirs) { return .older }
        }
        guard let mine = history.newest else { return .later }
        // Or it names this process's own newest save, when the snapshot is of an older copy.
        let came = [mine, lineage.newest].compactMap { $0 }
        return came.contains(where: file.saves.contains) ? .later : .unrelated
    }
}

extension DocumentSnapshot: Equatable where Document: Equatable {}

extension DocumentSnapshot {
    /// Whether the file held exactly `data` when this snapshot was taken.
    ///
    /// - Complexity: O(*n*), a memory comparison.
    func holds(_ data: Data) -> Bool {
        guard let bytes, bytes.count == data.count else { return false }
        return bytes.withUnsafeBytes { mine in
            data.withUnsafeBytes { theirs in
                guard let mine = mine.baseAddress, let theirs = theirs.baseAddress else {
                    return true  // both empty
                }
                return memcmp(mine, theirs, data.count) == 0
            }
        }
    }
}

/// What a synchronized save wrote.
public struct SaveOutcome<Document: Sendable>: Sendable {
    /// The file as it is now.
    public let snapshot: DocumentSnapshot<Document>
    /// The merge, if another process had saved since the base: the document written is then
    /// `merged.document`, not the one handed to the save.
    public let merged: MergeResult<Document>?
    /// Whether the file is known to be on disk.
    public let durability: SaveDurability
    /// Whether the file had been deleted since the base was read (by another program, or by
    /// hand), so that this save made it anew.
    public let recreatedDeletedFile: Bool

    /// Creates the outcome of a save.
    public init(
        snapshot: DocumentSnapshot<Document>, merged: MergeResult<Document>? = nil,
        durability: SaveDurability = .durable, recreatedDeletedFile: Bool = false
    ) {
        self.snapshot = snapshot
        self.merged = merged
        self.durability = durability
        self.recreatedDeletedFile = recreatedDeletedFile
    }
}

/// Whether a file that was written is known to survive a power cut.
public enum SaveDurability: Equatable, Sendable {
    /// The file and the folder entry that names it were flushed to disk.
    case durable
    /// The file was written and holds the new version, but the system could not confirm that
    /// it is on disk (flushing its folder failed, for this reason): a power cut could still bring
    /// the old version back. The next save flushes again.
    case unconfirmed(String)
}

/// What a look at a document file found, compared with a snapshot; see
/// `DocumentFile.check(against:)`.
public enum FileCheck<Document: Sendable>: Sendable {
    /// The file holds the snapshot's bytes. The snapshot carries the file's identity now, and
    /// `reread` says whether the bytes had to be read to find that out (the file was touched, or
    /// saved again with the same bytes).
    case unchanged(DocumentSnapshot<Document>, reread: Bool)
    /// The file holds other bytes: another process saved.
    case changed(DocumentSnapshot<Document>)
    /// The file the snapshot was read from is gone: deleted by another program, or by hand.
    case deleted
}
