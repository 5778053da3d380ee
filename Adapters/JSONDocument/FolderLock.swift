import Foundation
package import MVCListStore

/// An exclusive `flock` on the folder that holds a JSON document, held until it is released or
/// goes away.
///
/// Who takes it: `FileLock` (this module), which every process of this package goes through
/// before it replaces a JSON document. The SQLite adapter (MVCSQLiteStore) does not take it: a
/// database is guarded by SQLite's own locks, and nothing of this package opens, locks or closes
/// a database's files behind SQLite's back.
///
/// A lock on the folder, not on a file in it, is one no deletion can take away: no program
/// deletes a folder that holds the store (a lock file can be deleted while it is held, and
/// another process then locks a new one). Where the file system cannot lock a folder (`flock` on
/// NFS needs a file open for writing), or the folder cannot be opened, there is no folder lock;
/// ``lock(folderOf:until:failure:)`` says so with `nil`, and the caller goes on without it.
///
/// Taking it blocks the calling thread while another process holds it: call it from a thread of
/// the store's own (`BlockingFileWork`), never on the cooperative pool.
package final class FolderLock {
    private var descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { release() }

    /// How long a process waits for another to let go of a folder's lock (or a lock file's).
    ///
    /// A save holds it for one write and rename, milliseconds, so 10 s is a stuck process:
    /// longer than an SQLite edit's busy wait, since a document's save is the whole list.
    package static let patience: Duration = .seconds(10)

    /// Locks the folder that holds `file`, waiting until `deadline` (at most ``patience`` after
    /// the caller began) for another process to let go of it.
    ///
    /// - Parameter failure: The error to throw, given the reason in words, if another process
    ///   still holds the lock at `deadline` (a stopped process, say): each caller says what was
    ///   left undone.
    /// - Returns: The lock, or `nil` where the folder cannot be opened or locked.
    package static func lock(
        folderOf file: String, until deadline: ContinuousClock.Instant,
        failure: (_ reason: String) -> PersistenceError
    ) throws(PersistenceError) -> FolderLock? {
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent().path
        let handle = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard handle >= 0 else { return nil }
        while flock(handle, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                close(handle)
                return nil
            }
            guard ContinuousClock.now < deadline else {
                close(handle)
                throw failure(
                    "another process has held the lock on the folder \(folder) for over \(patience) (is it stopped?)"
                )
            }
            usleep(2_000)
        }
        return FolderLock(descriptor: handle)
    }

    /// Lets go of the lock now, rather than when this goes away.
    package func release() {
        guard descriptor >= 0 else { return }
        flock(descriptor, LOCK_UN)
        close(descriptor)
        descriptor = -1
    }
}
