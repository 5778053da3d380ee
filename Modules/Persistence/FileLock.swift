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
/// the process ends, however it ends, so a killed process never leaves the document locked. A
/// process that holds the lock but is stopped (Ctrl-Z, a debugger) would block every other save:
/// a save waits at most ``patience`` for the lock, then fails with a clear error and keeps its
/// version pending, instead of hanging its program's exit.
enum FileLock {
    /// How long a save waits for another process to release the lock.
    static let patience: Duration = .seconds(10)

    /// Runs `body` while holding the lock for the document at `path` (links already followed).
    static func withLock<Result>(
        forDocumentAt path: String, reportedAs shownPath: String,
        _ body: () throws(PersistenceError) -> Result
    ) throws(PersistenceError) -> Result {
        let document = URL(fileURLWithPath: path)
        let lockPath = document.deletingLastPathComponent().appending(
            path: ".\(document.lastPathComponent).lock"
        ).path
        var descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        var failure = descriptor < 0 ? AtomicFile.lastError() : ""
        if descriptor < 0 && errno == EACCES {
            // A lock file another user created (a group-shared document): reading is enough
            // for `flock`. If there is none, the first error (no permission to create it in the
            // folder) is the one that says what is wrong.
            descriptor = open(lockPath, O_RDONLY | O_CLOEXEC)
            if descriptor < 0 && errno != ENOENT { failure = AtomicFile.lastError() }
        }
        guard descriptor >= 0 else {
            throw .unwritable(
                path: shownPath, reason: "cannot open the lock file \(lockPath): \(failure)")
        }
        defer { close(descriptor) }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: patience)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw .unwritable(
                    path: shownPath, reason: "cannot lock \(lockPath): \(AtomicFile.lastError())")
            }
            guard clock.now < deadline else {
                throw .unwritable(
                    path: shownPath,
                    reason:
                        "another process has held the lock \(lockPath) for over \(patience) (is it stopped?); nothing was written"
                )
            }
            usleep(5_000)
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}
