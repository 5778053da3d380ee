import CSQLite
import Foundation
import MVCPersistence

/// SQLite's companion files of a database: its write-ahead log and the log's shared-memory
/// index, named after the database's path, not its file.
let companionSuffixes = ["-wal", "-shm"]

/// Runs `body` holding the lock on the folder that holds `file`.
///
/// It is MVCPersistence's `FolderLock`, which the JSON document's saves take too. Every process
/// of this package takes it before it takes away a database's companion files, and while it
/// makes a database where there was none. Where the folder cannot be locked, `body` runs without it. Called on a
/// database's own queue: the wait blocks its thread.
///
/// - Throws: `PersistenceError.unwritable` if another process holds the lock for over 10 s
///   (stopped, say); `body` does not run.
func withFolderLocked<Result>(
    holding file: URL, _ body: () throws(PersistenceError) -> Result
) throws(PersistenceError) -> Result {
    let lock = try FolderLock.lock(
        folderOf: file.path, until: .now + .seconds(10), reportedAs: file.path)
    defer { lock?.release() }
    return try body()
}

/// Runs `body`, which makes a database at `file` if there is none, holding the folder lock,
/// after taking away companion files that are not the file's: left there with no database, or
/// made for another file (see `LogOwner`).
///
/// They are a deleted or replaced database's (a file moved over it: a restored backup). While
/// processes still have it open, opening waits (up to 8 s: one busy wait of theirs, and more)
/// for them to notice, and make it again with their list, or fold their log into the old file,
/// rather than start an empty list they would then take for a replacement, or read their log
/// into pages of another file. Once nobody uses them, or the wait is over, they are taken away:
/// left there, the new database would take the old one's log for its own, or share its index
/// with them. Under the lock no other process of this package is making a database there
/// meanwhile, so companion files with no database beside them belong to none.
///
/// - Parameter first: Run first under the lock, each time it is taken (a reopening lets go of
///   the old file there, so that no other process makes an empty file between).
func makingDatabase<Result>(
    at file: URL, first: () -> Void = {}, _ body: () throws(PersistenceError) -> Result
) throws(PersistenceError) -> Result {
    let deadline = ContinuousClock.now + .seconds(8)
    while true {
        let made = try withFolderLocked(holding: file) { () throws(PersistenceError) -> Result? in
            first()
            let database = FileIdentity(path: file.path)
            let logOwner = LogOwner.recorded(forLogOf: file.path)
            if database == nil || (logOwner != nil && logOwner != database) {
                if isInUse(index: file.path + "-shm"), ContinuousClock.now < deadline {
                    return nil
                }
                for suffix in companionSuffixes { unlink(file.path + suffix) }
            }
            return try body()
        }
        if let made { return made }
        usleep(20_000)
    }
}

/// Whether a connection has the write-ahead-log index at `path` open: each holds a shared lock
/// on its byte 128 while it does (SQLite's Unix file system layer).
///
/// Read from the system's table of locks (`/proc/locks`, on Linux; elsewhere the answer is
/// no), not asked through a descriptor of the file: closing one would drop every lock this
/// process holds on it, SQLite's own among them.
func isInUse(index path: String) -> Bool {
    #if os(Linux)
        var status = stat()
        guard lstat(path, &status) == 0,
            let table = try? String(contentsOfFile: "/proc/locks", encoding: .utf8)
        else { return false }
        let inode = String(status.st_ino)
        // "1: POSIX  ADVISORY  READ 1234 fd:01:5678 128 128": the last part of the device and
        // inode field is the inode; the range starts at 128.
        return table.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            guard fields.count >= 8, fields[fields.count - 2] == "128" else { return false }
            return fields[fields.count - 3].split(separator: ":").last.map(String.init) == inode
        }
    #else
        return false
    #endif
}

/// Which database file a write-ahead log was made for, recorded on the log itself (an extended
/// attribute, `user.mvclayers.database`).
///
/// SQLite names the log after the path, and nothing in it says which file its pages are for. So
/// when another program moves a file over an open database, the old file's log, with its
/// unfolded commits, sits beside the new file; a process that opened the new file then would
/// read those commits into it, pages of one database written over another's. Each process of
/// this package records, when it attaches a log, the file it is for, and an opening checks the
/// record first (see ``makingDatabase(at:first:_:)``). A log with no record (made by another
/// program, or on a file system without extended attributes) is taken to be the file's.
enum LogOwner {
    private static let attribute = "user.mvclayers.database"

    /// The file the log of the database at `path` was recorded as made for; `nil` if there is no
    /// log, or no record on it.
    static func recorded(forLogOf path: String) -> FileIdentity? {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { bytes in
            #if canImport(Darwin)
                getxattr(
                    path + "-wal", attribute, bytes.baseAddress, bytes.count, 0, XATTR_NOFOLLOW)
            #else
                lgetxattr(path + "-wal", attribute, bytes.baseAddress, bytes.count)
            #endif
        }
        guard count > 0 else { return nil }
        let parts = String(decoding: buffer[..<count], as: UTF8.self).split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1])
        else { return nil }
        return FileIdentity(device: device, inode: inode)
    }

    /// Records on the log of the database at `path` that it is `database`'s, unless it says so
    /// already; best effort.
    static func record(_ database: FileIdentity, forLogOf path: String) {
        guard recorded(forLogOf: path) != database else { return }
        let value = Array("\(database.device):\(database.inode)".utf8)
        _ = value.withUnsafeBytes { bytes in
            #if canImport(Darwin)
                setxattr(
                    path + "-wal", attribute, bytes.baseAddress, bytes.count, 0, XATTR_NOFOLLOW)
            #else
                lsetxattr(path + "-wal", attribute, bytes.baseAddress, bytes.count, 0)
            #endif
        }
    }
}
