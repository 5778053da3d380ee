import Foundation
import MVCListStore

/// Whole-file reads, and writes that are atomic (all or nothing) and durable (on disk when done).
///
/// A write goes to a temporary file in the same folder, is flushed with `fsync`, renamed over the
/// target (an atomic replacement on POSIX file systems), and then the folder itself is flushed so
/// the rename survives a power cut. If anything fails, the temporary file is removed and the
/// target is as it was.
///
/// A write respects the file it replaces: a file this user may not write is not replaced (though
/// the folder would allow the rename), a symbolic link is followed and its target replaced
/// (the link stays a link), the permission bits are kept (and the owner and group, where the
/// process may set them), and a new file is readable and writable by its owner only. A folder the
/// write had to create is flushed into its parent, and a folder flush that fails is an error,
/// except where the file system says it cannot flush folders at all.
enum AtomicFile {
    /// The whole file, or `nil` if there is no file at `url`.
    static func read(_ url: URL) throws(PersistenceError) -> Data? {
        // First as the kernel resolves the path: a link the kernel follows but whose text names
        // no file (/dev/stdin → /proc/self/fd/0 → "pipe:[…]") is still a pipe, not a missing file.
        var direct = stat()
        if stat(url.path, &direct) == 0 { try refuseUnlessRegular(direct, url) }
        let path = try resolvedPath(url)
        var status = stat()
        guard stat(path, &status) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw .unreadable(path: url.path, reason: lastError())
        }
        try refuseUnlessRegular(status, url)
        do {
            // Through a file handle: Data(contentsOf:) leaks its buffer for an empty file on Linux.
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            return try handle.readToEnd() ?? Data()
        } catch {
            throw .unreadable(path: url.path, reason: error.localizedDescription)
        }
    }

    /// Throws unless `status` is a regular file's: a device or a pipe would be read for ever
    /// (/dev/zero) or block the open (a FIFO).
    private static func refuseUnlessRegular(_ status: stat, _ url: URL) throws(PersistenceError) {
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            return
        case S_IFDIR:
            throw .unreadable(path: url.path, reason: "it is a folder, not a file")
        default:
            throw .unreadable(
                path: url.path, reason: "it is not a regular file (a device, a pipe or a socket)")
        }
    }

    /// What identifies the file's current contents cheaply (see `FileIdentity`): a hint for the
    /// watcher only, since a freed inode can be reused by a save of the same size within one clock
    /// tick, so a save never trusts it and compares bytes instead.
    static func identity(of url: URL) throws(PersistenceError) -> FileIdentity? {
        let path = try resolvedPath(url)
        var status = stat()
        guard stat(path, &status) == 0 else {
            // No file, or a file where a folder of its path should be: there is nothing to read
            // (a write then says what is in the way).
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw .unreadable(path: url.path, reason: lastError())
        }
        return FileIdentity(status)
    }

    /// Replaces the file at `url` with `data`, atomically and durably, creating its folder if needed.
    ///
    /// - Parameters:
    ///   - steps: The file-system calls the replacement makes (see `FileReplacementSteps`).
    ///   - confirmLock: Asked just before the rename whether the save's lock is still held (see
    ///     `FileLock.Held`); when it is not, nothing is replaced.
    ///   - wrote: Given the new file's identity once its bytes are on disk, before the rename (not
    ///     called if the system cannot say it).
    /// - Returns: Whether the new file is known to be on disk (see ``SaveDurability``): an
    ///   unconfirmed write happened, and the file holds `data`.
    /// - Throws: When the file still holds what it held before.
    @discardableResult
    static func write(
        _ data: Data, to url: URL, steps: any FileReplacementSteps = POSIXReplacementSteps(),
        confirmLock: () -> Bool = { true }, wrote: (FileIdentity) -> Void = { _ in }
    ) throws(PersistenceError) -> SaveDurability {
        let target = URL(fileURLWithPath: try resolvedPath(url))
        let folder = target.deletingLastPathComponent()
        try createFolder(folder, for: url)
        // The rename needs only the folder's permission: without this check, anyone who may
        // write in the folder would replace a file they may only read.
        if access(target.path, F_OK) == 0, access(target.path, W_OK) != 0, errno == EACCES {
            throw .unwritable(
                path: url.path,
                reason:
                    "the file is read-only for this user (its permissions say so); nothing was written"
            )
        }
        let temporary = CompanionFiles(ofDocumentAt: target.path).temporaryPath()
        let handle: Int32
        do throws(FileReplacementFailure) {
            handle = try steps.createNew(temporary)
        } catch {
            throw .unwritable(
                path: url.path,
                reason:
                    "cannot create a temporary file in \(folder.path) to write the new version into: \(error.reason)"
            )
        }
        do throws(FileReplacementFailure) {
            do {
                defer { steps.close(handle) }
                try steps.copyPermissions(from: target.path, to: handle)
                try steps.write(data, to: handle)
                try steps.sync(handle)
                var status = stat()
                if fstat(handle, &status) == 0 { wrote(FileIdentity(status)) }
            }
            guard confirmLock() else {
                throw FileReplacementFailure(
                    "another program deleted the lock file while this save held it, so another save may have run at the same time; nothing was written"
                )
            }
            try steps.rename(temporary, to: target.path)
        } catch {
            steps.remove(temporary)
            throw .unwritable(path: url.path, reason: error.reason)
        }
        do throws(FileReplacementFailure) {
            try steps.syncFolder(folder.path)
            return .durable
        } catch {
            return .unconfirmed(error.reason)
        }
    }

    /// Removes the temporary files killed saves of the document at `target` left behind.
    ///
    /// A save locks its temporary file while it writes it, and the system lets go of the lock
    /// when the process ends however it ends: a file that can be locked is a leftover. One that
    /// cannot belongs to a save still running (one that lost the document's lock to a deleted lock
    /// file, say), and stays. Call it while holding the document's lock.
    static func removeLeftovers(ofDocumentAt target: String) {
        for leftover in CompanionFiles(ofDocumentAt: target).leftoverTemporaryFiles() {
            let handle = open(leftover, O_RDONLY | O_CLOEXEC)
            guard handle >= 0 else { continue }
            if flock(handle, LOCK_EX | LOCK_NB) == 0 { unlink(leftover) }
            close(handle)
        }
    }

    /// The path a read or write really touches: `url`'s, with symbolic links followed (the file
    /// itself may be a link, even one whose target does not exist yet).
    static func resolvedPath(_ url: URL) throws(PersistenceError) -> String {
        guard let target = SymbolicLinks.target(of: url, hops: SymbolicLinks.kernelHops) else {
            throw .unreadable(path: url.path, reason: "too many levels of symbolic links")
        }
        return target.path
    }

    /// Creates `folder` and any missing parents, saying which one could not be made and why.
    static func createFolder(_ folder: URL, for target: URL) throws(PersistenceError) {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) {
            guard isFolder.boolValue else {
                throw .unwritable(
                    path: target.path, reason: "\(folder.path) is a file, not a folder")
            }
            return
        }
        let parent = folder.deletingLastPathComponent()
        if parent.path != folder.path { try createFolder(parent, for: target) }
        guard mkdir(folder.path, 0o755) == 0 || errno == EEXIST else {
            throw .unwritable(
                path: target.path, reason: "cannot create the folder \(folder.path): \(lastError())"
            )
        }
        // The new folder's entry lives in its parent: flush the parent so the folder survives.
        do throws(FileReplacementFailure) {
            try POSIXReplacementSteps().syncFolder(parent.path)
        } catch {
            throw .unwritable(path: target.path, reason: error.reason)
        }
    }

    static func lastError() -> String {
        String(cString: strerror(errno))
    }
}

/// What identifies a file's contents without reading them; see `AtomicFile.identity(of:)`.
package struct FileIdentity: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modifiedSeconds: Int
    var modifiedNanoseconds: Int
    /// The status-change time: any write moves it, and unlike the modification time no program
    /// can set it back, so an in-place change of the same size with its old modification time
    /// restored is still seen.
    var changedSeconds: Int
    var changedNanoseconds: Int

    init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        #if canImport(Darwin)
            let (modified, changed) = (status.st_mtimespec, status.st_ctimespec)
        #else
            let (modified, changed) = (status.st_mtim, status.st_ctim)
        #endif
        modifiedSeconds = modified.tv_sec
        modifiedNanoseconds = modified.tv_nsec
        changedSeconds = changed.tv_sec
        changedNanoseconds = changed.tv_nsec
    }

    /// Whether `other` is this file with the same contents as written: the same file, size and
    /// modification time (a rename moves only the status-change time).
    func isSameWrite(as other: FileIdentity) -> Bool {
        device == other.device && inode == other.inode && size == other.size
            && modifiedSeconds == other.modifiedSeconds
            && modifiedNanoseconds == other.modifiedNanoseconds
    }
}
