import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An advisory lock shared by every process that saves one document: a save's read, check and
/// write happen while it is held, so two processes never interleave them.
///
/// The lock is taken on a small file beside the document (`.<name>.lock`), not on the document:
/// a save replaces the document by renaming a new file over it, and a lock on the old file would
/// not exclude a process that opened the new one. `flock` locks are released by the system when
/// the process ends, however it ends, so a killed process never leaves the document locked.
enum FileLock {
    /// Runs `body` while holding the lock for the document at `path` (links already followed).
    static func withLock<Result>(
        forDocumentAt path: String, reportedAs shownPath: String,
        _ body: () throws(PersistenceError) -> Result
    ) throws(PersistenceError) -> Result {
        let document = URL(fileURLWithPath: path)
        let lockPath = document.deletingLastPathComponent().appending(
            path: ".\(document.lastPathComponent).lock"
        ).path
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .unwritable(
                path: shownPath,
                reason: "cannot open the lock file \(lockPath): \(AtomicFile.lastError())")
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw .unwritable(
                    path: shownPath, reason: "cannot lock \(lockPath): \(AtomicFile.lastError())")
            }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}
