import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whole-file reads, and writes that are atomic (all or nothing) and durable (on disk when done).
///
/// A write goes to a temporary file in the same folder, is flushed with `fsync`, renamed over the
/// target (an atomic replacement on POSIX file systems), and then the folder itself is flushed so
/// the rename survives a power cut. If anything fails, the temporary file is removed and the
/// target is as it was.
///
/// A write respects the file it replaces: a symbolic link is followed and its target replaced
/// (the link stays a link), the permission bits are kept (and the owner and group, where the
/// process may set them), and a new file is readable and writable by its owner only. A folder the
/// write had to create is flushed into its parent, and a folder flush that fails is an error,
/// except where the file system says it cannot flush folders at all.
enum AtomicFile {
    /// The whole file, or `nil` if there is no file at `url`.
    static func read(_ url: URL) throws(PersistenceError) -> Data? {
        let path = try resolvedPath(url)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            return nil
        }
        if isFolder.boolValue {
            throw .unreadable(path: url.path, reason: "it is a folder, not a file")
        }
        do {
            // Through a file handle: Data(contentsOf:) leaks its buffer for an empty file on Linux.
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            return try handle.readToEnd() ?? Data()
        } catch {
            throw .unreadable(path: url.path, reason: error.localizedDescription)
        }
    }

    /// What identifies the file's current contents cheaply.
    ///
    /// The identity is the device, inode, size and modification time. A replacement by rename always changes the inode, so an unchanged identity means an
    /// unchanged file; a changed one means "read it and compare".
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
    static func write(_ data: Data, to url: URL) throws(PersistenceError) {
        let target = URL(fileURLWithPath: try resolvedPath(url))
        let folder = target.deletingLastPathComponent()
        try createFolder(folder, for: url)
        let temporary = folder.appending(
            path: ".\(target.lastPathComponent).\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .unwritable(path: url.path, reason: lastError()) }
        var succeeded = false
        defer {
            if !succeeded { unlink(temporary.path) }
        }
        do {
            defer { close(descriptor) }
            try keepPermissions(of: target, on: descriptor, path: url.path)
            try writeAll(data, to: descriptor, path: url.path)
            guard fsync(descriptor) == 0 else {
                throw PersistenceError.unwritable(path: url.path, reason: lastError())
            }
        }
        guard rename(temporary.path, target.path) == 0 else {
            throw .unwritable(path: url.path, reason: lastError())
        }
        succeeded = true
        try syncFolder(folder, for: url)
    }

    /// The path a read or write really touches: `url`'s, with symbolic links followed (the file
    /// itself may be a link, even one whose target does not exist yet).
    static func resolvedPath(_ url: URL) throws(PersistenceError) -> String {
        var path = url.path
        for _ in 0..<40 {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(path, &buffer, buffer.count - 1)
            guard length >= 0 else { return path }
            let destination = String(
                decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            path =
                destination.hasPrefix("/")
                ? destination
                : URL(fileURLWithPath: path).deletingLastPathComponent().appending(
                    path: destination
                ).path
        }
        throw .unreadable(path: url.path, reason: "too many levels of symbolic links")
    }

    /// Gives the new file the mode, owner and group of the file it replaces; a new file keeps the
    /// owner-only mode it was created with.
    private static func keepPermissions(of target: URL, on descriptor: Int32, path: String)
        throws(PersistenceError)
    {
        var status = stat()
        guard stat(target.path, &status) == 0 else { return }
        // Changing the owner needs privileges most processes lack; the mode is what matters.
        _ = fchown(descriptor, status.st_uid, status.st_gid)
        guard fchmod(descriptor, status.st_mode & 0o7777) == 0 else {
            throw .unwritable(
                path: path, reason: "cannot keep the file's permissions: \(lastError())")
        }
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
        try syncFolder(parent, for: target)
    }

    private static func writeAll(_ data: Data, to descriptor: Int32, path: String)
        throws(PersistenceError)
    {
        let failure: String? = data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                guard let base = buffer.baseAddress else { return nil }
                let written = writeBytes(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return lastError()
                }
                offset += written
            }
            return nil
        }
        if let failure { throw .unwritable(path: path, reason: failure) }
    }

    /// Flushes a folder so that a rename or a new entry in it is durable.
    ///
    /// File systems that cannot flush folders say so with `EINVAL` (or cannot open them for
    /// reading); that is not an error. Any other failure is: the rename may not survive a power cut.
    private static func syncFolder(_ folder: URL, for target: URL) throws(PersistenceError) {
        let descriptor = open(folder.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 || errno == EINVAL || errno == EROFS else {
            throw .unwritable(
                path: target.path,
                reason: "the file was replaced, but flushing \(folder.path) failed: \(lastError())")
        }
    }

    static func lastError() -> String {
        String(cString: strerror(errno))
    }
}

/// What identifies a file's contents without reading them; see `AtomicFile.identity(of:)`.
struct FileIdentity: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modifiedSeconds: Int
    var modifiedNanoseconds: Int

    init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        #if canImport(Darwin)
            modifiedSeconds = status.st_mtimespec.tv_sec
            modifiedNanoseconds = status.st_mtimespec.tv_nsec
        #else
            modifiedSeconds = status.st_mtim.tv_sec
            modifiedNanoseconds = status.st_mtim.tv_nsec
        #endif
    }
}

/// Calls the C library's `write`, whose name `AtomicFile.write(_:to:)` hides inside the enum.
private func writeBytes(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
