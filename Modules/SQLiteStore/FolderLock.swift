import Foundation

/// Runs `body` holding an exclusive `flock` on the folder that holds `file`, which every
/// process of this package takes before it takes away a database's write-ahead log and
/// shared-memory files (see `ListDatabase.leaveReplacedFile()`).
///
/// A lock on the folder, not on a file beside the database: there is no lock file another
/// program could delete while it is held. If the folder cannot be opened (it was deleted too),
/// `body` runs without the lock: no process can make a file in it then.
func withFolderLocked<Result>(holding file: URL, _ body: () throws -> Result) rethrows -> Result {
    let folder = open(file.deletingLastPathComponent().path, O_RDONLY | O_CLOEXEC)
    guard folder >= 0 else { return try body() }
    defer { close(folder) }
    while flock(folder, LOCK_EX) != 0, errno == EINTR {}
    return try body()
}
