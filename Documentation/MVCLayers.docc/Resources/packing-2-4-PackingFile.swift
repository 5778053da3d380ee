import Foundation
import MVCPersistence

/// How a packing list is stored.
///
/// Version 1: items with a name and whether they are packed.
public enum PackingFile {
    /// The format: its version, and how to read older versions.
    public static let format = FileFormat<[Item]>(currentVersion: 1) { version, _ in
        throw PackingFileError.unknownVersion(version)
    }

    /// The packing list file at `url`.
    public static func file(at url: URL) -> DocumentFile<[Item]> {
        DocumentFile(url: url, format: format)
    }
}

/// A file this program cannot read.
public enum PackingFileError: Error {
    case unknownVersion(Int)
}
