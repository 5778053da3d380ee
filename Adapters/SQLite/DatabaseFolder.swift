import Foundation
import MVCPersistence
import MVCStore

/// SQLite's companion files of a database: its write-ahead log and the log's shared-memory
/// index, named after the database's path, not its file.
let companionSuffixes = ["-wal", "-shm"]

/// Runs `body` holding the lock on the folder that holds `file`.
///
/// It is MVCPersistence's `FolderLock`, which the JSON document's saves take too. Every process
/// of this package takes it before it takes away a database's companion files, and while it
/// makes a database where there was none. Where the folder cannot be locked, `body` runs
/// without it. Called on a database's own queue: the wait blocks its thread.
///
/// - Parameter work: What the lock is taken for, which the error says was left undone if another
///   process holds the lock for longer than `FolderLock.patience` (stopped, say); `body` does
///   not run then.
func withFolderLocked<Result>(
    holding file: URL, for work: FolderWork, _ body: () throws(PersistenceError) -> Result
) throws(PersistenceError) -> Result {
    let lock = try FolderLock.lock(folderOf: file.path, until: .now + FolderLock.patience) {
        work.failure(at: file.path, because: $0)
    }
    defer { lock?.release() }
    return try body()
}

/// What a process takes the folder lock for: what is left undone when it cannot.
enum FolderWork {
    /// Opening the database, or opening it again: it is not opened.
    case opening
    /// Writing a file, or taking files away: nothing is written.
    case writing

    /// The error for a lock that could not be taken, for `reason`.
    func failure(at path: String, because reason: String) -> PersistenceError {
        switch self {
        case .opening: .unreadable(path: path, reason: reason + "; the database was not opened")
        case .writing: .unwritable(path: path, reason: reason + "; nothing was written")
        }
    }
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
/// - Parameters:
///   - first: Run first under the lock, each time it is taken (a reopening lets go of the old
///     file there, so that no other process makes an empty file between).
///   - work: What the database is made for (see ``withFolderLocked(holding:for:_:)``).
func makingDatabase<Result>(
    at file: URL, for work: FolderWork, first: () -> Void = {},
    _ body: () throws(PersistenceError) -> Result
) throws(PersistenceError) -> Result {
    let deadline = ContinuousClock.now + .seconds(8)
    while true {
        let made = try withFolderLocked(holding: file, for: work) {
            () throws(PersistenceError) -> Result? in
            first()
            let database = FileIdentity(path: file.path)
            if database == nil || LogOwner.logIsAnotherFiles(database: file.path) {
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
