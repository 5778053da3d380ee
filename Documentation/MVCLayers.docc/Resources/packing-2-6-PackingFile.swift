import Foundation
import MVCPersistence

/// How a packing list is stored.
///
/// Version 2 added `quantity`; a version-1 file is migrated when it is read (each item counts 1),
/// and written back as version 2 on the next save.
public enum PackingFile {
    /// The format: its version, and how to read older versions.
    public static let format = FileFormat<[Item]>(currentVersion: 2) { version, json in
        guard version == 1 else { throw PackingFileError.unknownVersion(version) }
        return try JSONDecoder().decode([ItemVersion1].self, from: json).map {
            Item(id: $0.id, name: $0.name, isPacked: $0.isPacked, quantity: 1)
        }
    }

    /// The packing list file at `url`.
    public static func file(at url: URL) -> DocumentFile<[Item]> {
        DocumentFile(url: url, format: format)
    }

    /// An item as version 1 stored it.
    private struct ItemVersion1: Decodable {
        let id: UUID
        let name: String
        let isPacked: Bool
    }
}

/// A file this program cannot read.
public enum PackingFileError: Error {
    case unknownVersion(Int)
}
