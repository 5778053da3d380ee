import Dispatch
public import Foundation

/// Tells when one of some files changes, from the operating system's own notices.
///
/// The notices are inotify's on Linux, dispatch file-system sources' on Apple platforms: no
/// polling.
///
/// It watches the files' folders, so a file replaced by a rename (a document's atomic save), or
/// one that does not exist yet, is still seen; only changes to the named files are passed on.
/// A notice means "look again", never what changed: a burst of writes may be one notice, or
/// several.
public final class FileChangeWatcher {
    private let sources: [any DispatchSourceProtocol]

    /// Starts watching `files`, calling `onChange` on `queue` after each change to one of them.
    ///
    /// - Parameters:
    ///   - files: The files to watch; their folders are watched, and only their names passed on.
    ///   - queue: Where `onChange` is called.
    ///   - onChange: Called after each change; it means "look again", never what changed.
    /// - Returns: `nil` if the system has no such notices (a file system that does not send
    ///   them, the per-user inotify limit reached): the caller polls instead.
    public init?(
        files: [URL],
        queue: DispatchQueue = .global(qos: .userInitiated),
        onChange: @escaping @Sendable () -> Void
    ) {
        guard !files.isEmpty else { return nil }
        #if os(Linux)
            guard let source = Self.inotifySource(files: files, queue: queue, onChange: onChange)
            else { return nil }
            sources = [source]
        #elseif canImport(Darwin)
            guard
                let sources = Self.vnodeSources(
                    files: files,
                    folders: Set(files.map { $0.deletingLastPathComponent().path }), queue: queue,
                    onChange: onChange)
            else { return nil }
            self.sources = sources
        #else
            return nil
        #endif
        for source in sources { source.resume() }
    }

    /// Stops watching; no `onChange` starts after this returns.
    public func cancel() {
        for source in sources where !source.isCancelled { source.cancel() }
    }

    deinit { cancel() }

    #if os(Linux)
        /// One inotify descriptor watching each folder, read by a dispatch source.
        private static func inotifySource(
            files: [URL], queue: DispatchQueue, onChange: @escaping @Sendable () -> Void
        ) -> (any DispatchSourceRead)? {
            let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard descriptor >= 0 else { return nil }
            let folders = Set(files.map { $0.deletingLastPathComponent().path })
            let mask = UInt32(
                IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE)
            for folder in folders where inotify_add_watch(descriptor, folder, mask) < 0 {
                close(descriptor)
                return nil
            }
            let names = Set(files.map(\.lastPathComponent))
            let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
            source.setEventHandler {
                if InotifyEvents.readAll(from: descriptor).contains(where: names.contains) {
                    onChange()
                }
            }
            source.setCancelHandler { close(descriptor) }
            return source
        }
    #elseif canImport(Darwin)
        /// A source on each folder (a file created or renamed into it) and on each file that
        /// exists (written to, extended, replaced).
        private static func vnodeSources(
            files: [URL], folders: Set<String>, queue: DispatchQueue,
            onChange: @escaping @Sendable () -> Void
        ) -> [any DispatchSourceProtocol]? {
            var sources: [any DispatchSourceProtocol] = []
            for path in folders.sorted() + files.map(\.path) {
                let descriptor = open(path, O_EVTONLY)
                guard descriptor >= 0 else {
                    if folders.contains(path) { return nil }
                    continue
                }
                let source = DispatchSource.makeFileSystemObjectSource(
                    fileDescriptor: descriptor, eventMask: [.write, .extend, .rename, .delete],
                    queue: queue)
                source.setEventHandler { onChange() }
                source.setCancelHandler { close(descriptor) }
                sources.append(source)
            }
            return sources
        }
    #endif
}

#if os(Linux)
    /// Reads the events waiting on an inotify descriptor.
    package enum InotifyEvents {
        /// The names of the files in the events waiting now (the descriptor is non-blocking).
        static func readAll(from descriptor: Int32) -> [String] {
            var names: [String] = []
            var buffer = [UInt8](repeating: 0, count: 4_096)
            while true {
                let count = buffer.withUnsafeMutableBytes {
                    read(descriptor, $0.baseAddress, $0.count)
                }
                guard count > 0 else { return names }
                names += Self.names(in: buffer[0..<count])
            }
        }

        /// The names in a buffer of `struct inotify_event`s: a 16-byte header (watch, mask,
        /// cookie, length of the name, each 32 bits in the machine's byte order), then the name,
        /// padded with zero bytes.
        package static func names(in bytes: ArraySlice<UInt8>) -> [String] {
            var names: [String] = []
            var offset = bytes.startIndex
            while offset + 16 <= bytes.endIndex {
                let length = Int(
                    bytes[(offset + 12)..<(offset + 16)].withUnsafeBytes {
                        $0.loadUnaligned(as: UInt32.self)
                    })
                let nameStart = offset + 16
                let nameEnd = min(nameStart + length, bytes.endIndex)
                let name = bytes[nameStart..<nameEnd].prefix { $0 != 0 }
                if !name.isEmpty { names.append(String(decoding: name, as: UTF8.self)) }
                offset = nameStart + length
            }
            return names
        }
    }
#endif
