public import Foundation

/// How a kind of document is stored: its current format version, and how to read older ones.
///
/// A file holds `{"formatVersion": N, "document": ...}`. A file of the current version is decoded
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
    /// Every field name the current version's document uses, at any depth; `nil` checks none.
    ///
    /// A file of the current version holding another field is refused, since decoding would
    /// ignore it and the next save would drop it (a misspelt `"note"` would be lost without a
    /// word). Leave it `nil` for a document whose keys are data (a dictionary keyed by name).
    public let fieldNames: Set<String>?

    /// Creates a format.
    ///
    /// - Parameters:
    ///   - currentVersion: The version this program writes; at least 1.
    ///   - migrate: Converts an older version's document JSON into a current document; throw for
    ///     a version it cannot convert.
    ///   - validate: Says what breaks the document's rules, if anything; a file that breaks them
    ///     is refused untouched. Accepts everything by default.
    ///   - fieldNames: Every field name the document uses, at any depth, so that a file holding
    ///     another is refused; `nil` (the default) checks none.
    public init(
        currentVersion: Int,
        migrate: @escaping @Sendable (_ fromVersion: Int, _ documentJSON: Data) throws -> Document,
        validate: @escaping @Sendable (Document) -> String? = { _ in nil },
        fieldNames: Set<String>? = nil
    ) {
        self.currentVersion = currentVersion
        self.migrate = migrate
        self.validate = validate
        self.fieldNames = fieldNames
    }
}
