import Foundation

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

    /// The snapshot of a file that does not exist (yet).
    public static var missing: DocumentSnapshot {
        DocumentSnapshot(document: nil, bytes: nil, identity: nil)
    }
}

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

/// The result of merging a process's version of a document with the version in the file.
public struct MergeResult<Document: Sendable>: Sendable {
    /// The document with both sides' changes.
    public var document: Document
    /// What the user should know about the merge, each a sentence.
    ///
    /// Conflicts and how they were resolved. Empty when the two sides changed different things.
    public var notices: [String]

    /// Creates a merge result.
    public init(document: Document, notices: [String] = []) {
        self.document = document
        self.notices = notices
    }
}

/// What a synchronized save wrote.
public struct SaveOutcome<Document: Sendable>: Sendable {
    /// The file as it is now.
    public let snapshot: DocumentSnapshot<Document>
    /// The merge, if another process had saved since the base: the document written is then
    /// `merged.document`, not the one handed to the save.
    public let merged: MergeResult<Document>?
}
