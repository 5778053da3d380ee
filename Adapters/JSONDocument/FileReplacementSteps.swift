package import Foundation

/// The file-system calls an atomic replacement makes, in the order `AtomicFile.write` makes
/// them: create a temporary file, give it the target's permissions, write, sync, close, rename it
/// over the target, sync the folder.
///
/// The real calls are ``POSIXReplacementSteps``. A test can substitute a simulated disk that
/// records the calls and works out every state a power cut could leave (data not yet synced
/// dropped, a rename not yet synced undone), to check that each one holds the old document or the
/// new one. Killing a process cannot show that: the page cache survives a killed process.
package protocol FileReplacementSteps: Sendable {
    /// Creates the file at `path`, which must not exist, readable and writable by its owner only,
    /// and locks it (`flock`) until it is closed.
    func createNew(_ path: String) throws(FileReplacementFailure) -> Int32
    /// Gives the new file the mode, and the owner and group as far as allowed, of the file at
    /// `target`, if any.
    func copyPermissions(from target: String, to handle: Int32) throws(FileReplacementFailure)
    /// Writes all of `data`.
    func write(_ data: Data, to handle: Int32) throws(FileReplacementFailure)
    /// Makes the written data durable.
    func sync(_ handle: Int32) throws(FileReplacementFailure)
    /// Closes the file.
    func close(_ handle: Int32)
    /// Renames `source` over `destination`, atomically.
    func rename(_ source: String, to destination: String) throws(FileReplacementFailure)
    /// Makes the folder's entries (the rename) durable.
    func syncFolder(_ path: String) throws(FileReplacementFailure)
    /// Removes a temporary file left by a failed replacement.
    func remove(_ path: String)
}

/// Why a step of a replacement failed, in a few words.
package struct FileReplacementFailure: Error, Sendable {
    /// The system's explanation.
    package var reason: String

    package init(_ reason: String) {
        self.reason = reason
    }

    /// The failure `errno` describes.
    static var current: FileReplacementFailure {
        FileReplacementFailure(String(cString: strerror(errno)))
    }
}

/// The real file-system calls of a replacement.
///
/// The C library's calls are named through `Foundation`: the methods' own names hide them.
package struct POSIXReplacementSteps: FileReplacementSteps {
    package init() {}

    package func createNew(_ path: String) throws(FileReplacementFailure) -> Int32 {
        let handle = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard handle >= 0 else { throw .current }
        // Locked while it is written, so that another save never takes it for a killed save's
        // leftover (see `AtomicFile.removeLeftovers`); the system lets go when it closes.
        _ = flock(handle, LOCK_EX | LOCK_NB)
        return handle
    }

    package func copyPermissions(from target: String, to handle: Int32)
        throws(FileReplacementFailure)
    {
        var status = stat()
        guard stat(target, &status) == 0 else { return }
        // Keep the owner and group as far as this process may: changing the owner needs
        // privileges most processes lack, but a member of the file's group may keep the group,
        // so that the others who share the file can still read and save it.
        if fchown(handle, status.st_uid, status.st_gid) != 0 {
            _ = fchown(handle, uid_t.max, status.st_gid)
        }
        guard fchmod(handle, status.st_mode & 0o7777) == 0 else {
            throw FileReplacementFailure(
                "cannot keep the file's permissions: \(FileReplacementFailure.current.reason)")
        }
    }

    package func write(_ data: Data, to handle: Int32) throws(FileReplacementFailure) {
        let failure: FileReplacementFailure? = data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                guard let base = buffer.baseAddress else { return nil }
                let written = Foundation.write(handle, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return .current
                }
                offset += written
            }
            return nil
        }
        if let failure { throw failure }
    }

    package func sync(_ handle: Int32) throws(FileReplacementFailure) {
        guard fsync(handle) == 0 else { throw .current }
    }

    package func close(_ handle: Int32) {
        _ = Foundation.close(handle)
    }

    package func rename(_ source: String, to destination: String) throws(FileReplacementFailure) {
        guard Foundation.rename(source, destination) == 0 else {
            throw FileReplacementFailure(
                "cannot move the new version into place: \(FileReplacementFailure.current.reason)")
        }
    }

    /// Flushes the folder's entries.
    ///
    /// File systems that cannot flush folders say so with `EINVAL` (or cannot open them for
    /// reading); that is not an error. Any other failure is: the rename may not survive a power
    /// cut.
    package func syncFolder(_ path: String) throws(FileReplacementFailure) {
        let handle = open(path, O_RDONLY | O_CLOEXEC)
        guard handle >= 0 else { return }
        defer { _ = Foundation.close(handle) }
        guard fsync(handle) == 0 || errno == EINVAL || errno == EROFS else {
            throw FileReplacementFailure(
                "flushing the folder \(path) failed: \(FileReplacementFailure.current.reason)"
            )
        }
    }

    package func remove(_ path: String) {
        unlink(path)
    }
}
