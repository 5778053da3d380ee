import Foundation
import MVCModel
import MVCStore

/// What other programs did: a commit to take in, found by asking SQLite.
extension ListDatabase {
    /// The whole list, if another connection committed since the last look (`nil` if none did),
    /// with the rows that break a rule.
    ///
    /// SQLite's documented way to find another connection's commit is to ask: `PRAGMA
    /// data_version` changes when one commits. What changed, it does not say: so the list is
    /// read whole, and the store works out the difference.
    func look() -> Result<(elements: [Element], problems: [String])?, PersistenceError> {
        Result { () throws(PersistenceError) in
            let connection = try connected()
            let version = try sqliteCall { try connection.integer("PRAGMA data_version") ?? 0 }
            guard version != seenDataVersion else { return nil }
            let read = try read(connection, refusingBrokenRows: false)
            // Unmade by another program (its version cleared, a field's column gone): out of
            // SQLite's contract for this file, told, and never taken in as every row deleted.
            let columns = try sqliteCall {
                try connection.strings("SELECT name FROM pragma_table_info('elements')")
            }
            guard read.version == DatabaseSchema.version,
                Element.fields.allSatisfy({ columns.contains($0.name) })
            else { throw DatabaseSchema.notMine(path) }
            // Only once read: a look that failed is tried again at the next poll.
            seenDataVersion = version
            return (read.elements, read.problems)
        }
    }
}

/// What a path names now (a link itself, unless `followingLinks`): one `lstat` or `stat`, which
/// opens nothing.
struct FileIdentity: Equatable, Sendable {
    var size: Int64
    var isFolder: Bool
    /// Whether it is a plain file (not a folder, a link, a device, a pipe or a socket).
    var isFile: Bool
    var isLink: Bool

    init?(path: String, followingLinks: Bool = false) {
        var status = stat()
        guard (followingLinks ? stat(path, &status) : lstat(path, &status)) == 0 else { return nil }
        size = Int64(status.st_size)
        isFolder = status.st_mode & S_IFMT == S_IFDIR
        isFile = status.st_mode & S_IFMT == S_IFREG
        isLink = status.st_mode & S_IFMT == S_IFLNK
    }
}
