package import Foundation

/// Where a path leads once its symbolic links are followed: one way of following them, for every
/// adapter that keeps a list in a file, each with the limit of the engine that opens the file.
package enum SymbolicLinks {
    /// The most links followed to a JSON document: the kernel's own limit for a path (Linux's
    /// `MAXSYMLINKS`), so a document is found wherever `open(2)` of the path given would find
    /// it; the resolved path is what is then opened, locked and replaced.
    package static let kernelHops = 40
    /// The most links SQLite follows to its database (its `SQLITE_MAX_SYMLINK`), past which it
    /// refuses to open it.
    package static let sqliteHops = 100

    /// The file `url` leads to, a link to a file not made yet included; `nil` past `hops` links
    /// (a loop, or a chain longer than the engine follows).
    ///
    /// Each hop resolves the link's folder as the system does, so a `..` after a link leads out
    /// of its target, not out of the folder the link is in.
    package static func target(of url: URL, hops: Int) -> URL? {
        var (folder, name) = (url.deletingLastPathComponent().path, url.lastPathComponent)
        for _ in 0...hops {
            if let resolved = realpath(folder, nil) {
                folder = String(cString: resolved)
                free(resolved)
            }
            let file = URL(fileURLWithPath: folder).appending(path: name)
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: file.path)
            else { return file }
            let next = URL(fileURLWithPath: target.hasPrefix("/") ? target : "\(folder)/\(target)")
            (folder, name) = (next.deletingLastPathComponent().path, next.lastPathComponent)
        }
        return nil
    }
}
