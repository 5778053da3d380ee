import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive `flock` on the folder that holds a store's file, held until it is released or
/// goes away: the one lock every process of this package takes before it replaces a JSON
/// document, and before it makes a database or takes away a database's log.
///
/// A lock on the folder, not on a file in it, is one no deletion can take away: no program
/// deletes a folder that holds the store (a lock file can be deleted while it is held, and
/// another process then locks a new one). Where the file system cannot lock a folder (`flock` on
/// NFS needs a file open for writing), or the folder cannot be opened, there is no folder lock;
/// ``lock(folderOf:until:reportedAs:)`` says so with `nil`, and the caller goes on without it.
///
/// Taking it blocks the calling thread while another process holds it: call it from a thread of
/// the store's own (`BlockingFileWork`, a database's queue), never on the cooperative pool.
package final class FolderLock {
    private var descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { release() }

    /// Locks the folder that holds `file`, waiting until `deadline` for another process to let
    /// go of it.
    ///
    /// - Returns: The lock, or `nil` where the folder cannot be opened or locked.
    /// - Throws: `PersistenceError.unwritable` about `shownPath` if another process still holds
    ///   the lock at `deadline` (a stopped process, say).
    package static func lock(
        folderOf file: String, until deadline: ContinuousClock.Instant, reportedAs shownPath: String
    ) throws(PersistenceError) -> FolderLock? {
        let start = ContinuousClock.now
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
                throw .unwritable(
                    path: shownPath,
                    reason:
                        "another process has held the lock on the folder \(folder) for over \((ContinuousClock.now - start).components.seconds) seconds (is it stopped?); nothing was written"
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
