import Foundation

/// The saves a document file names, newest first: the one that wrote it, then those its
/// version came after, at most ``limit``.
///
/// The three-way merge reads a row missing from the file as deleted by another program. That is
/// only true of a file that came *after* the version this process last saw; a backup put back,
/// a copy edited elsewhere, or another list moved over the file lacks rows nobody deleted. The
/// file's own bytes cannot say which, so each save names itself (a random id) and the saves it
/// came after (see ``DocumentSnapshot/lineage(of:)``).
public struct SaveHistory: Equatable, Sendable {
    /// How many saves a file names: enough that a process that last looked a few saves ago still
    /// finds its version among them.
    public static let limit = 32
    /// How many saves a process remembers its version came after, to know an older copy put
    /// back: more than a file names, since it costs only memory.
    public static let lineageLimit = 1_024

    /// The saves' ids, newest first; empty for a file written before saves were named.
    public let saves: [String]

    /// A history of `saves`, newest first (the first `limit` of them).
    public init(_ saves: [String] = [], limit: Int = Self.limit) {
        self.saves = Array(saves.prefix(limit))
    }

    /// The save that wrote the file.
    public var newest: String? { saves.first }

    /// This history with a new save in front, as a file names its saves: what a save of a
    /// version that came after it writes.
    func savedAgain() -> SaveHistory {
        SaveHistory([UUID().uuidString] + saves)
    }

    /// This history, then the saves of `other` it does not name, the first ``lineageLimit`` of them.
    func followed(by other: SaveHistory) -> SaveHistory {
        var seen = Set<String>()
        return SaveHistory(
            (saves + other.saves).filter { seen.insert($0).inserted }, limit: Self.lineageLimit)
    }
}

/// How the file a process finds stands to the version it last read or wrote; see
/// ``DocumentSnapshot/lineage(of:)``.
public enum FileLineage: Equatable, Sendable {
    /// A later version of the same list: what it lacks, another program deleted.
    case later
    /// An older copy, put back: what it lacks was not deleted, and the list open here replaces it.
    case older
    /// A version that did not come from the one open here: merged with no base, so that neither
    /// side's rows are taken as deleted by the other.
    case unrelated

    /// What the file's version is merged against, given the version this process last read or
    /// wrote: that one for a later version; the file's own for an older copy, so that the merge
    /// changes nothing of this process's version; none for an unrelated one.
    func mergeBase<Document>(last: Document?, file: Document) -> Document? {
        switch self {
        case .later: last
        case .older: file
        case .unrelated: nil
        }
    }

    /// What the user is told of the file before the merge's own notices.
    var notices: [String] {
        switch self {
        case .later: []
        case .older: [SaverNotice.older]
        case .unrelated: [SaverNotice.unrelated]
        }
    }
}
