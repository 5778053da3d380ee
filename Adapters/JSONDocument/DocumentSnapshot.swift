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
    /// Which save of which document the file held.
    public let revision: FileRevision
    /// The highest revision number of this document this process has read or written: the next
    /// save writes one more, even after the file went back to an older copy.
    public let highestRevision: Int

    /// A snapshot of a file that held `bytes` (`nil`: no file), read as `document`, at
    /// `revision`; `highestRevision` is at least the revision's number.
    package init(
        document: Document?, bytes: [UInt8]?, identity: FileIdentity? = nil,
        revision: FileRevision = .unnumbered, highestRevision: Int = 0
    ) {
        self.document = document
        self.bytes = bytes
        self.identity = identity
        self.revision = revision
        self.highestRevision = max(highestRevision, revision.number)
    }

    /// The snapshot of a file that does not exist (yet).
    public static var missing: DocumentSnapshot {
        DocumentSnapshot(document: nil, bytes: nil, identity: nil)
    }

    /// The snapshot of this document's file once it was deleted: no file, but the document's id
    /// and count go on, so that a copy put back later is still known for an older one.
    var deleted: DocumentSnapshot {
        DocumentSnapshot(
            document: nil, bytes: nil, identity: nil, revision: revision,
            highestRevision: highestRevision)
    }

    /// This snapshot, having seen revisions up to `highestRevision` too.
    func with(highestRevision: Int) -> DocumentSnapshot {
        DocumentSnapshot(
            document: document, bytes: bytes, identity: identity, revision: revision,
            highestRevision: max(highestRevision, self.highestRevision))
    }

    /// This snapshot with another identity, the same in every other way.
    func with(identity: FileIdentity?) -> DocumentSnapshot {
        DocumentSnapshot(
            document: document, bytes: bytes, identity: identity, revision: revision,
            highestRevision: highestRevision)
    }

    /// How a file that holds `revision` stands to this snapshot, the version this process last
    /// read or wrote.
    ///
    /// Another document id is ``FileLineage/otherDocument``; a lower revision of this document
    /// is ``FileLineage/older``; anything else (a higher revision, or the same one edited by
    /// hand or by a program that keeps no count) is ``FileLineage/later``. A file written before
    /// revisions holds neither an id nor a count, and is never another document. A snapshot of
    /// no file keeps the id and count of the file that was deleted, if there was one.
    public func lineage(of revision: FileRevision) -> FileLineage {
        if let mine = self.revision.documentID, let theirs = revision.documentID, mine != theirs {
            return .otherDocument
        }
        if revision.number < self.revision.number { return .older }
        return .later
    }
}

/// Which save of which document a file holds: the envelope's `documentID` and `revision`.
///
/// The three-way merge reads a row missing from the file as deleted by another program. That is
/// only true of a file that came *after* the version this process last saw; a backup put back,
/// or another list moved over the file, lacks rows nobody deleted. The revision tells them
/// apart: every save writes one more than the highest this process has seen, and keeps the
/// document's id.
public struct FileRevision: Equatable, Sendable {
    /// The document's id, made by the save that created the file and kept by every later one;
    /// `nil` in a file written before ids.
    public var documentID: String?
    /// How many saves the document has had, as counted by the programs that saved it; 0 in a
    /// file written before revisions.
    public var number: Int

    /// Creates a revision.
    public init(documentID: String?, number: Int) {
        self.documentID = documentID
        self.number = number
    }

    /// What a file written before revisions holds: no id, no count.
    public static var unnumbered: FileRevision { FileRevision(documentID: nil, number: 0) }
}

/// How the file a process finds stands to the version it last read or wrote; see
/// ``DocumentSnapshot/lineage(of:)``.
public enum FileLineage: Equatable, Sendable {
    /// A later version of the same document: what it lacks, another program deleted.
    case later
    /// An older copy of the same document, put back: what it lacks was not deleted.
    case older
    /// Another document moved over the file: neither side's rows were deleted by the other.
    case otherDocument
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
