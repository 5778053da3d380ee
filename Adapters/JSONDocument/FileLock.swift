import Foundation
import MVCListStore

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
/// The document's folder is locked as well, where the file system allows it: a lock no deletion
/// can take away, since no program deletes a folder that holds the store. Where the folder cannot
/// be opened or locked (`flock` on NFS needs a file open for writing), the lock file alone guards
/// the save. Only this module takes these locks: an SQLite database is guarded by SQLite's own.
///
/// `flock` locks are released by the system when the process ends, however it ends, so a killed
/// process never leaves the document locked. A process that holds the lock but is stopped (Ctrl-Z,
/// a debugger) would block every other save: a save waits at most ``patience`` for the lock, then
/// fails with a clear error and keeps its version pending, instead of hanging its program's exit.
enum FileLock {
    /// How long a save waits for another process to release the lock.
    ///
    /// A save holds it for one write and rename, milliseconds, so 10 s is a stuck process:
    /// longer than an SQLite edit's busy wait, since a document's save is the whole list.
    static let patience: Duration = .seconds(10)

    /// The lock, held; a save confirms it (``confirm(unchangedMeanwhile:)``) just before it
    /// replaces the document.
    final class Held {
        private var descriptor: Int32 = -1
        /// The document's folder, locked too where it can be (see `FileLock`); -1 where not.
        ///
        /// Under a program that deletes lock files in a loop, saves that relied on the lock file
        /// alone kept finding it gone and gave up. Earlier versions lock only the lock file, so it
        /// is taken too.
        private var folderDescriptor: Int32 = -1
        private let lockPath: String
        private let documentPath: String
        private let shownPath: String
        private let deadline: ContinuousClock.Instant
        /// Whether the lock was lost: its file deleted or replaced, and another process may have
        /// saved meanwhile.
        private(set) var isLost = false

        /// Takes the lock, waiting until `deadline` for another process to let go of it.
        fileprivate init(documentPath: String, shownPath: String, deadline: ContinuousClock.Instant)
            throws(PersistenceError)
        {
            lockPath = CompanionFiles(ofDocumentAt: documentPath).lockPath
            self.documentPath = documentPath
            self.shownPath = shownPath
            self.deadline = deadline
            folderDescriptor = try lockFolder()
            do throws(PersistenceError) {
                descriptor = try lockFileAtPath()
            } catch {
                release()
                throw error
            }
        }

        /// Opens and locks the lock file until the file locked is the one at the path: one
        /// deleted or replaced while this process waited may be another process's lock no more.
        private func lockFileAtPath() throws(PersistenceError) -> Int32 {
            while true {
                var candidate = try openLockFile()
                do throws(PersistenceError) {
                    guard try waitForLock(candidate, named: "the lock \(lockPath)") else {
                        throw .unwritable(
                            path: shownPath,
                            reason: "cannot lock \(lockPath): \(AtomicFile.lastError())")
                    }
                } catch {
                    close(candidate)
                    throw error
                }
                if Self.isFile(candidate, at: lockPath) { return candidate }
                Self.unlock(&candidate)
                usleep(1_000)  // something is deleting lock files: do not spin against it
            }
        }

        /// Whether this process still holds the lock at the path.
        ///
        /// When the lock file was deleted or replaced, the lock is taken again at the path, and
        /// `unchangedMeanwhile` is asked whether the document is still as this save read it (no
        /// other save got in); only then is the answer yes.
        func confirm(unchangedMeanwhile: () -> Bool) -> Bool {
            while !Self.isFile(descriptor, at: lockPath) {
                Self.unlock(&descriptor)
                descriptor = (try? lockFileAtPath()) ?? -1
                guard descriptor >= 0, unchangedMeanwhile() else {
                    isLost = true
                    return false
                }
            }
            return true
        }

        fileprivate func release() {
            Self.unlock(&descriptor)
            Self.unlock(&folderDescriptor)
        }
    }

    /// Runs `body` while holding the lock for the document at `path` (links already followed).
    ///
    /// If another save got in while the lock file was gone (``Held/confirm(unchangedMeanwhile:)``
    /// says so), `body` throws, and runs again under the lock, reading what the other process
    /// saved, until ``patience`` runs out.
    ///
    /// This blocks its thread while it waits: call it from `BlockingFileWork`, never on the
    /// cooperative pool.
    static func withLock<Result>(
        forDocumentAt path: String, reportedAs shownPath: String,
        _ body: (Held) throws(PersistenceError) -> Result
    ) throws(PersistenceError) -> Result {
        let deadline = ContinuousClock.now.advanced(by: patience)
        while true {
            let held = try Held(documentPath: path, shownPath: shownPath, deadline: deadline)
            defer { held.release() }
            do {
                return try body(held)
            } catch  where held.isLost && ContinuousClock.now < deadline {
                continue
            }
        }
    }
}

extension FileLock.Held {
    /// Opens the lock file, creating it readable by all and with the document's group.
    ///
    /// `flock` needs only a descriptor open for reading, so any user who may read the lock file
    /// can lock it: every member of a group that shares the document, even if the lock file was
    /// made before the document was shared. A lock file holds nothing, so reading it tells
    /// nothing.
    private func openLockFile() throws(PersistenceError) -> Int32 {
        var document = stat()
        let hasDocument = stat(documentPath, &document) == 0
        var attempts = 0
        while true {
            attempts += 1
            let created = open(lockPath, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if created >= 0 {
                // Best effort: the lock works for this user either way. The owner stays this user.
                if hasDocument { _ = fchown(created, uid_t.max, document.st_gid) }
                _ = fchmod(created, 0o644 | (hasDocument ? document.st_mode & 0o060 : 0))
                return created
            }
            // No permission to create it in the folder says more than "no such file" below.
            let creationFailure = errno == EEXIST ? nil : AtomicFile.lastError()
            // Never through a link: a link planted at the lock's name would have this user's file
            // widened below.
            var descriptor = open(lockPath, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
            if descriptor >= 0 { Self.share(descriptor, like: hasDocument ? document : nil) }
            if descriptor < 0 && errno == EACCES {
                // A lock file another user made: reading is enough for `flock`.
                descriptor = open(lockPath, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            }
            if descriptor < 0, errno == ELOOP {
                throw .unwritable(
                    path: shownPath,
                    reason:
                        "the lock file \(lockPath) is a symbolic link, which a lock file never is; it was left as it is, and nothing was written (remove it)"
                )
            }
            // Deleted by another program between the two opens: make it again.
            if descriptor < 0, errno == ENOENT, creationFailure == nil, attempts < 100 {
                usleep(1_000)  // not a spin: the deleting program gets a turn
                continue
            }
            guard descriptor >= 0 else {
                let reason =
                    creationFailure.map { "cannot create the lock file \(lockPath): \($0)" }
                    ?? "cannot open the lock file \(lockPath): \(AtomicFile.lastError())"
                throw .unwritable(path: shownPath, reason: reason)
            }
            return descriptor
        }
    }

    /// Widens a lock file this user owns that earlier versions made 0600, so the document's
    /// group can lock it too; best effort.
    ///
    /// Only a plain file with no other name: never another file of this user's that a hard link
    /// planted at the lock's name points to.
    private static func share(_ descriptor: Int32, like document: stat?) {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_uid == geteuid(),
            status.st_mode & S_IFMT == S_IFREG, status.st_nlink == 1
        else { return }
        let wanted = 0o644 | (document.map { $0.st_mode & 0o060 } ?? 0)
        if status.st_mode & wanted != wanted {
            _ = fchmod(descriptor, (status.st_mode & 0o777) | wanted)
        }
        if let document, status.st_gid != document.st_gid {
            _ = fchown(descriptor, uid_t.max, document.st_gid)
        }
    }

    /// Opens and locks the folder that holds the document, waiting until `deadline` for another
    /// process to let go of it; -1 where the folder cannot be opened or locked.
    private func lockFolder() throws(PersistenceError) -> Int32 {
        let folder = URL(fileURLWithPath: documentPath).deletingLastPathComponent().path
        let handle = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard handle >= 0 else { return -1 }
        do throws(PersistenceError) {
            if try waitForLock(handle, named: "the lock on the folder \(folder)") { return handle }
        } catch {
            close(handle)
            throw error
        }
        close(handle)
        return -1
    }

    /// Waits, polling, until `descriptor` is locked (true), the file system refuses to lock it
    /// (false), or `deadline` passes (thrown, naming the lock held).
    private func waitForLock(_ descriptor: Int32, named name: String) throws(PersistenceError)
        -> Bool
    {
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { return false }
            guard ContinuousClock.now < deadline else {
                throw .unwritable(
                    path: shownPath,
                    reason:
                        "another process has held \(name) for over \(FileLock.patience) (is it stopped?); nothing was written"
                )
            }
            usleep(2_000)
        }
        return true
    }

    /// Lets go of a lock held as `descriptor`, and closes it.
    fileprivate static func unlock(_ descriptor: inout Int32) {
        guard descriptor >= 0 else { return }
        flock(descriptor, LOCK_UN)
        close(descriptor)
        descriptor = -1
    }

    /// Whether the file open as `descriptor` is the one at `path` now.
    fileprivate static func isFile(_ descriptor: Int32, at path: String) -> Bool {
        var held = stat()
        var current = stat()
        guard fstat(descriptor, &held) == 0, stat(path, &current) == 0 else { return false }
        return held.st_dev == current.st_dev && held.st_ino == current.st_ino
    }
}
