import Foundation

/// SQLite's companion files of a database: its write-ahead log and the log's shared-memory
/// index, named after the database's path, not its file.
let companionSuffixes = ["-wal", "-shm"]

/// Runs `body` holding an exclusive `flock` on the folder that holds `file`, which every
/// process of this package takes before it takes away a database's companion files, and while
/// it makes a database where there was none.
///
/// A lock on the folder, not on a file beside the database: there is no lock file another
/// program could delete while it is held. If the folder cannot be opened (it was deleted too),
/// `body` runs without the lock: no process can make a file in it then.
func withFolderLocked<Result, Failure: Error>(
    holding file: URL, _ body: () throws(Failure) -> Result
) throws(Failure) -> Result {
    let folder = open(file.deletingLastPathComponent().path, O_RDONLY | O_CLOEXEC)
    guard folder >= 0 else { return try body() }
    defer { close(folder) }
    while flock(folder, LOCK_EX) != 0, errno == EINTR {}
    return try body()
}

/// Runs `body`, which makes a database at `file` if there is none, holding the folder lock,
/// after taking away companion files left there with no database.
///
/// They are a deleted database's, which processes that still have it open may be using: left
/// there, the new database would take the old one's log for its own, or share its index with
/// them. Under the lock no other process of this package is making a database there meanwhile,
/// so companion files with no database beside them belong to none.
func makingDatabase<Result, Failure: Error>(
    at file: URL, _ body: () throws(Failure) -> Result
) throws(Failure) -> Result {
    try withFolderLocked(holding: file) { () throws(Failure) -> Result in
        if !FileManager.default.fileExists(atPath: file.path) {
            for suffix in companionSuffixes { unlink(file.path + suffix) }
        }
        return try body()
    }
}
