import Foundation
import MVCPersistence

/// SQLite's companion files of a database: its write-ahead log and the log's shared-memory
/// index, named after the database's path, not its file.
let companionSuffixes = ["-wal", "-shm"]

/// Runs `body` holding an exclusive `flock` on the folder that holds `file`, which every
/// process of this package takes before it takes away a database's companion files, and while
/// it makes a database where there was none (the JSON document's saves take the same lock).
///
/// A lock on the folder, not on a file beside the database: there is no lock file another
/// program could delete while it is held. Where the folder cannot be opened or locked (`flock`
/// on NFS), `body` runs without it. Called on a database's own queue: the wait blocks its
/// thread.
///
/// - Throws: `PersistenceError.unwritable` if another process holds the lock for over 10 s
///   (stopped, say); `body` does not run.
func withFolderLocked<Result>(
    holding file: URL, _ body: () throws(PersistenceError) -> Result
) throws(PersistenceError) -> Result {
    let folder = file.deletingLastPathComponent().path
    let handle = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard handle >= 0 else { return try body() }
    defer { close(handle) }
    let deadline = ContinuousClock.now + .seconds(10)
    while flock(handle, LOCK_EX | LOCK_NB) != 0 {
        guard errno == EWOULDBLOCK || errno == EINTR else { return try body() }
        guard ContinuousClock.now < deadline else {
            throw .unwritable(
                path: file.path,
                reason:
                    "another process has held the lock on the folder \(folder) for over 10 seconds (is it stopped?)"
            )
        }
        usleep(2_000)
    }
    return try body()
}

/// Runs `body`, which makes a database at `file` if there is none, holding the folder lock,
/// after taking away companion files left there with no database.
///
/// They are a deleted database's, which processes that still have it open may be using: left
/// there, the new database would take the old one's log for its own, or share its index with
/// them. Under the lock no other process of this package is making a database there meanwhile,
/// so companion files with no database beside them belong to none.
func makingDatabase<Result>(
    at file: URL, _ body: () throws(PersistenceError) -> Result
) throws(PersistenceError) -> Result {
    try withFolderLocked(holding: file) { () throws(PersistenceError) -> Result in
        if !FileManager.default.fileExists(atPath: file.path) {
            for suffix in companionSuffixes { unlink(file.path + suffix) }
        }
        return try body()
    }
}
