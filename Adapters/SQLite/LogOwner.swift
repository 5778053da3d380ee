import CSQLite
import Foundation

/// Which database file a write-ahead log was made for, recorded on the log itself (an extended
/// attribute, `user.mvclayers.database`).
///
/// SQLite names the log after the path, and nothing in it says which file its pages are for. So
/// when another program moves a file over an open database, the old file's log, with its
/// unfolded commits, sits beside the new file; a process that opened the new file then would
/// read those commits into it, pages of one database written over another's. Each process of
/// this package records, when it attaches a log, the file it is for, and an opening checks the
/// record first (see ``makingDatabase(at:first:_:)``).
///
/// The record names both files by inode ("log L was made for file D"); the device is left out,
/// as the two are in one folder, and a device number can change when a volume is mounted again.
/// It is trusted only while the log is still file L: a copied or restored pair (`cp -a`, a
/// backup tool that keeps extended attributes) gets new inodes, and its log counts as the
/// database's, as does a log with no record (made by another program, or on a file system
/// without extended attributes). SQLite then recovers it as usual.
enum LogOwner {
    private static let attribute = "user.mvclayers.database"

    /// Whether the log beside the database at `path` was recorded as made for another file than
    /// the one there now.
    static func logIsAnotherFiles(database path: String) -> Bool {
        guard let log = FileIdentity(path: path + "-wal"),
            let record = recorded(onLogAt: path + "-wal"), record.log == log.inode
        else { return false }
        return FileIdentity(path: path)?.inode != record.database
    }

    /// Records on the log beside the database at `path` that it is `database`'s, unless it says
    /// so already; best effort.
    static func record(_ database: FileIdentity, forLogOf path: String) {
        let logPath = path + "-wal"
        guard let log = FileIdentity(path: logPath) else { return }
        if let record = recorded(onLogAt: logPath), record == (log.inode, database.inode) {
            return
        }
        let value = Array("\(log.inode):\(database.inode)".utf8)
        _ = value.withUnsafeBytes { bytes in
            #if canImport(Darwin)
                setxattr(logPath, attribute, bytes.baseAddress, bytes.count, 0, XATTR_NOFOLLOW)
            #else
                lsetxattr(logPath, attribute, bytes.baseAddress, bytes.count, 0)
            #endif
        }
    }

    /// The record on the log at `logPath`: its own inode and its database's, as they were when
    /// it was written; `nil` if there is none.
    private static func recorded(onLogAt logPath: String) -> (log: UInt64, database: UInt64)? {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { bytes in
            #if canImport(Darwin)
                getxattr(logPath, attribute, bytes.baseAddress, bytes.count, 0, XATTR_NOFOLLOW)
            #else
                lgetxattr(logPath, attribute, bytes.baseAddress, bytes.count)
            #endif
        }
        guard count > 0 else { return nil }
        let parts = String(decoding: buffer[..<count], as: UTF8.self).split(separator: ":")
        guard parts.count == 2, let log = UInt64(parts[0]), let database = UInt64(parts[1])
        else { return nil }
        return (log, database)
    }
}
