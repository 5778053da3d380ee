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
enum AtomicFile {
    /// The whole file, or `nil` if there is no file at `url`.
    static func read(_ url: URL) throws(PersistenceError) -> Data? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            return nil
        }
        if isFolder.boolValue {
            throw .unreadable(path: url.path, reason: "it is a folder, not a file")
        }
        do {
            // Through a file handle: Data(contentsOf:) leaks its buffer for an empty file on Linux.
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            return try handle.readToEnd() ?? Data()
        } catch {
            throw .unreadable(path: url.path, reason: describe(error))
        }
    }

    /// Replaces the file at `url` with `data`, atomically and durably, creating its folder if needed.
    static func write(_ data: Data, to url: URL) throws(PersistenceError) {
        let folder = url.deletingLastPathComponent()
        try createFolder(folder, for: url)
        let temporary = folder.appending(path: ".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .unwritable(path: url.path, reason: lastError()) }
        var succeeded = false
        defer {
            if !succeeded { unlink(temporary.path) }
        }
        do {
            defer { close(descriptor) }
            try writeAll(data, to: descriptor, path: url.path)
            guard fsync(descriptor) == 0 else {
                throw PersistenceError.unwritable(path: url.path, reason: lastError())
            }
        }
        guard rename(temporary.path, url.path) == 0 else {
            throw .unwritable(path: url.path, reason: lastError())
        }
        succeeded = true
        syncFolder(folder)
    }

    /// Creates `folder` and any missing parents, saying which one could not be made and why.
    private static func createFolder(_ folder: URL, for target: URL) throws(PersistenceError) {
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

    /// Flushes a folder so that a rename in it is durable; best effort, as some file systems
    /// refuse to open folders for this.
    private static func syncFolder(_ folder: URL) {
        let descriptor = open(folder.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    private static func lastError() -> String {
        String(cString: strerror(errno))
    }

    private static func describe(_ error: any Error) -> String {
        error.localizedDescription
    }
}

/// Calls the C library's `write`, whose name `AtomicFile.write(_:to:)` hides inside the enum.
private func writeBytes(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
