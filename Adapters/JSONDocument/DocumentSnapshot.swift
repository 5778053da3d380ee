import Foundation
public import MVCStore

/// A document file as one process last read or wrote it: the document, and the exact bytes, so
/// that a change made by another process is recognized by content.
///
/// A snapshot is the *base* of a three-way merge: when the file no longer holds these bytes,
/// another process saved since, and this process's version is merged with the file's against
/// the snapshot's document instead of overwriting it.
public struct DocumentSnapshot<Document: Sendable>: Sendable {
    /// The document, or `nil` when there was no file.
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

    /// A snapshot of a file that held `bytes` (`nil`: no file), read as `document`.
    package init(document: Document?, bytes: [UInt8]?, identity: FileIdentity? = nil) {
        self.document = document
        self.bytes = bytes
        self.identity = identity
    }

    /// The snapshot of a file that does not exist (yet).
    public static var missing: DocumentSnapshot {
        DocumentSnapshot(document: nil, bytes: nil, identity: nil)
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
