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
/// The lock is taken on a small file beside the document (`.<name>.lock`, see `CompanionFiles`),
/// not on the document: a save replaces the document by renaming a new file over it, and a lock
/// on the old file would not exclude a process that opened the new one. For the same reason, the
/// lock held must be the file at the lock's path: if something deleted the lock file (a temp
/// cleaner, `rm .*.lock`) another process could create a new one and lock it at the same time, so
/// after locking, the file at the path is compared with the locked one (device and inode), and the
/// lock is taken again when they differ.
///
/// `flock` locks are released by the system when the process ends, however it ends, so a killed
/// process never leaves the document locked. A process that holds the lock but is stopped (Ctrl-Z,
/// a debugger) would block every other save: a save waits at most ``patience`` for the lock, then
/// fails with a clear error and keeps its version pending, instead of hanging its program's exit.
///
/// A new lock file gets the document's group and group permissions, so every member of a group
/// that shares the document can lock it.
enum FileLock {
    /// How long a save waits for another process to release the lock.
    static let patience: Duration = .seconds(10)

    /// Runs `body` while holding the lock for the document at `path` (links already followed).
    ///
    /// This blocks its thread while it waits: call it from `BlockingFileWork`, never on the
    /// cooperative pool.
    static func withLock<Result>(
        forDocumentAt path: String, reportedAs shownPath: String,
        _ body: () throws(PersistenceError) -> Result
    ) throws(PersistenceError) -> Result {
        let lockPath = CompanionFiles(ofDocumentAt: path).lockPath
        let deadline = ContinuousClock.now.advanced(by: patience)
        while true {
            let descriptor = try openLockFile(lockPath, sharingWith: path, reportedAs: shownPath)
            defer { close(descriptor) }
            try waitForLock(descriptor, at: lockPath, until: deadline, reportedAs: shownPath)
            guard isFile(descriptor, at: lockPath) else {
                // Deleted or replaced while this process waited: another process may hold the
                // file now at the path. Lock that one instead.
                flock(descriptor, LOCK_UN)
                continue
            }
            defer { flock(descriptor, LOCK_UN) }
            return try body()
        }
    }

    /// Opens the lock file, creating it with the document's group and group permissions.
    private static func openLockFile(
        _ lockPath: String, sharingWith documentPath: String, reportedAs shownPath: String
    ) throws(PersistenceError) -> Int32 {
        var document = stat()
        let hasDocument = stat(documentPath, &document) == 0
        let created = open(lockPath, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if created >= 0 {
            if hasDocument {
                // The group only: the owner stays this user. Both are best effort; the lock works
                // for this user either way.
                _ = fchown(created, uid_t.max, document.st_gid)
                _ = fchmod(created, 0o600 | (document.st_mode & 0o060))
            }
            return created
        }
        // No permission to create it in the folder says more than "no such file" below.
        let creationFailure = errno == EEXIST ? nil : AtomicFile.lastError()
        var descriptor = open(lockPath, O_RDWR | O_CLOEXEC)
        if descriptor < 0 && errno == EACCES {
            // A lock file another user made without group write (earlier versions made them
            // 0600): reading is enough for `flock`.
            descriptor = open(lockPath, O_RDONLY | O_CLOEXEC)
        }
        guard descriptor >= 0 else {
            let failure = creationFailure ?? AtomicFile.lastError()
            throw .unwritable(
                path: shownPath, reason: "cannot open the lock file \(lockPath): \(failure)")
        }
        return descriptor
    }

    /// Waits, polling, until `descriptor` is locked or `deadline` passes.
    private static func waitForLock(
        _ descriptor: Int32, at lockPath: String, until deadline: ContinuousClock.Instant,
        reportedAs shownPath: String
    ) throws(PersistenceError) {
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw .unwritable(
                    path: shownPath, reason: "cannot lock \(lockPath): \(AtomicFile.lastError())")
            }
            guard ContinuousClock.now < deadline else {
                throw .unwritable(
                    path: shownPath,
                    reason:
                        "another process has held the lock \(lockPath) for over \(patience) (is it stopped?); nothing was written"
                )
            }
            usleep(5_000)
        }
    }

    /// Whether the file open as `descriptor` is the one at `path` now.
    private static func isFile(_ descriptor: Int32, at path: String) -> Bool {
        var held = stat()
        var current = stat()
        guard fstat(descriptor, &held) == 0, stat(path, &current) == 0 else { return false }
        return held.st_dev == current.st_dev && held.st_ino == current.st_ino
    }
}
