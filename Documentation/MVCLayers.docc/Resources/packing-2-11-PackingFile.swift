import Foundation
import MVCDocumentStore
import MVCElements

/// An item is stored as an object of its described fields; one it lacks takes its default.
extension Item: Codable {
    /// Reads the described fields.
    public init(from decoder: any Decoder) throws { self = try Self.decodeFields(from: decoder) }
    /// Writes the described fields.
    public func encode(to encoder: any Encoder) throws { try encodeFields(to: encoder) }
}

/// A packing list is one JSON document: `{"document": [...], "formatVersion": 1, "saves": [...]}`.
extension Item: DocumentListElement {
    /// The file's format: its version, its migrations, and the rules and names it checks.
    public static let documentFormat = FileFormat<[Item]>(
        currentVersion: 1,
        // No older version yet. A field added with a default needs no new one: a row without it
        // loads with the default. A renamed or split field would, with a migration here.
        migrate: { version, _ in throw PackingFileError.unknownVersion(version) }
    )
}

/// A file this program cannot read.
public enum PackingFileError: Error {
    case unknownVersion(Int)
}
