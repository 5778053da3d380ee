import Foundation
import MVCStore
import Synchronization

/// What other programs did: a commit to take in, or a file deleted, moved, replaced, emptied or
/// cut short under this one, found without opening any of the database's files outside SQLite.
extension ListDatabase {
    /// Why the path no longer names the file open here, if it does not: deleted or moved away,
    /// replaced by another file, emptied or cut short in place, or a link on the way to it
    /// pointed elsewhere.
    ///
    /// One `lstat` (nothing is opened), the links on the way followed again where the path was
    /// opened through one, and `PRAGMA data_version` if the file got shorter.
    func lost() -> String? {
        guard let opened else { return nil }
        guard let now = FileIdentity(path: path) else {
            return "it was deleted or moved away by another program"
        }
        if !now.isSameFile(as: opened) { return "another program replaced it with another file" }
        if now.links > 1 { return Self.secondName(now.links) }
        // Followed again as at opening: a link on the way may now lead elsewhere.
        if named != path, Self.followingLinks(URL(fileURLWithPath: named)).path != path {
            return "\(named), the path it was opened by, now leads to another file, or to none"
        }
        if now.size < 100, opened.size >= 100 { return "another program emptied it" }
        if let leastSize, now.size < leastSize.bytes,
            (try? connection?.integer("PRAGMA data_version")) == leastSize.dataVersion
        {
            return now.size < 100
                ? "another program emptied it"
                : "another program cut it short, or wrote a shorter file over it"
        }
        return nil
    }

    /// Why a database with more than one name may not be used: SQLite names its log after the
    /// name it was opened by, so programs opening it by different names lose each other's commits.
    nonisolated static func secondName(_ links: Int) -> String {
        "it has \(links) names (hard links), and SQLite keeps a log beside each name: programs opening it by different names lose each other's commits (give it one name)"
    }

    /// Notes the least size the file can have from now on, until another connection commits:
    /// its size now, or its pages' if fewer (what SQLite's next checkpoint may cut it to).
    ///
    /// Only a commit can make the list need fewer pages (a VACUUM, a restore, a delete where
    /// `auto_vacuum` is on): another connection's changes `data_version`, and only then may the
    /// bound go down; this connection's own lowers it at once (``committed()``). A file shorter
    /// than that was cut by another program (cut just before this measure, too: the bound kept).
    /// Where SQLite cannot answer (a lock held past the busy wait), the bound stays: ``lost()``
    /// uses it only while `data_version` is still the one it was measured at.
    func measure() {
        guard let connection, let before = try? connection.integer("PRAGMA data_version"),
            let pages = try? connection.integer("PRAGMA page_count"),
            let pageSize = try? connection.integer("PRAGMA page_size"),
            let now = FileIdentity(path: path),
            (try? connection.integer("PRAGMA data_version")) == before
        else { return }
        let bytes = min(now.size, pages * pageSize)
        if let known = leastSize, known.dataVersion == before {
            leastSize?.bytes = max(known.bytes, bytes)
        } else {
            leastSize = (bytes, before, pageSize)
        }
    }

    /// Lowers the least size after this connection's own commit, which may need fewer pages.
    ///
    /// One statement: the page size is the one measured (only a VACUUM changes it, a commit).
    func committed() {
        guard let bound = leastSize else { return }
        guard let pages = try? connection?.integer("PRAGMA page_count") else {
            leastSize = nil
            return
        }
        leastSize?.bytes = min(bound.bytes, pages * bound.pageSize)
    }

    /// Folds this connection's commits into the lost file it has open and empties the log
    /// (SQLite's own checkpoint), so that no later file at the path reads them as its own.
    ///
    /// Done where nothing is at the path, or another file that no other connection has written
    /// through the log at the path since the last look (its commits would go into the lost file).
    /// Not for the same file emptied or cut short in place: the checkpoint would write into it.
    func foldLog() {
        guard let connection else { return }
        if let now = FileIdentity(path: path) {
            if let opened, now.isSameFile(as: opened) { return }
            guard (try? connection.integer("PRAGMA data_version")) == seenDataVersion else {
                return
            }
        }
        _ = try? connection.strings("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// Why the file is lost, if it is; else the whole list, if another connection committed since
    /// the last look (`nil` if none did), with the rows that break a rule.
    ///
    /// SQLite's documented way to find another connection's commit is to ask: `PRAGMA
    /// data_version` changes when one commits. What changed, it does not say: so the list is
    /// read whole, and the store works out the difference.
    func look() -> (
        lost: String?, read: Result<(elements: [Element], problems: [String])?, PersistenceError>
    ) {
        if let reason = lost() { return (reason, .success(nil)) }
        readsChanges.store(true, ordering: .relaxed)
        defer { readsChanges.store(false, ordering: .relaxed) }
        return (
            nil,
            Result { () throws(PersistenceError) in
                let connection = try connected()
                let version = try sqliteCall { try connection.integer("PRAGMA data_version") ?? 0 }
                defer { measure() }
                guard version != seenDataVersion else { return nil }
                let read = try read(connection, refusingBrokenRows: false)
                // Only once read: a look that failed is tried again at the next poll.
                seenDataVersion = version
                return (read.elements, read.problems)
            }
        )
    }
}

/// Which file a path names now (a link itself, unless `followingLinks`), and how long it is: one
/// `lstat` or `stat`, which opens nothing.
struct FileIdentity: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var isFolder: Bool
    /// Whether it is a plain file (not a folder, a link, a device, a pipe or a socket).
    var isFile: Bool
    var isLink: Bool
    /// How many names (hard links) the file has.
    var links: Int

    init?(path: String, followingLinks: Bool = false) {
        var status = stat()
        guard (followingLinks ? stat(path, &status) : lstat(path, &status)) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        isFolder = status.st_mode & S_IFMT == S_IFDIR
        isFile = status.st_mode & S_IFMT == S_IFREG
        isLink = status.st_mode & S_IFMT == S_IFLNK
        links = Int(status.st_nlink)
    }

    func isSameFile(as other: FileIdentity) -> Bool {
        device == other.device && inode == other.inode
    }
}
