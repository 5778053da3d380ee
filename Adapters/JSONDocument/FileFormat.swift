public import Foundation

/// How a kind of document is stored: its current format version, and how to read older ones.
///
/// A file holds `{"document": ..., "formatVersion": N, "saves": [...]}` (the saves are the
/// ``DocumentFile``'s own, see ``SaveHistory``). A file of the current version is decoded
/// as `Document`; an older one is handed, as the raw JSON of its `document` field, to
/// ``migrate``, which turns it into today's `Document`; a newer one is refused.
public struct FileFormat<Document: Codable & Sendable>: Sendable {
    /// The version this program writes.
    public let currentVersion: Int
    /// Converts the JSON of an older version's document into a current document.
    public let migrate: @Sendable (_ fromVersion: Int, _ documentJSON: Data) throws -> Document
    /// Checks a decoded document against the rules its values keep in memory; returns what is
    /// wrong, naming the place ("row 3, the name: ..."), or `nil` when nothing is.
    public let validate: @Sendable (Document) -> String?
    /// Every field name each version's document uses, at any depth, by version.
    ///
    /// A file holding another field, or one field twice in an object, is refused, since decoding
    /// would ignore it and the next save would drop it (a misspelt `"note"` would be lost without
    /// a word). A version with no entry is not checked: leave out a version whose document has
    /// keys that are data (a dictionary keyed by name).
    public let fieldNames: [Int: Set<String>]

    /// Creates a format from the properties of the same names: `currentVersion` is at least 1,
    /// `migrate` throws for a version it cannot convert, and by default `validate` accepts
    /// everything and `fieldNames` checks nothing.
    public init(
        currentVersion: Int,
        migrate: @escaping @Sendable (_ fromVersion: Int, _ documentJSON: Data) throws -> Document,
        validate: @escaping @Sendable (Document) -> String? = { _ in nil },
        fieldNames: [Int: Set<String>] = [:]
    ) {
        self.currentVersion = currentVersion
        self.migrate = migrate
        self.validate = validate
        self.fieldNames = fieldNames
    }
}
