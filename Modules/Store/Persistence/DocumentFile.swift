public import Foundation

/// One `Codable` document in one file: loaded whole, saved whole, atomically and durably.
///
/// - A missing file loads as `nil` (a new, empty document is the caller's call).
/// - A file that cannot be read, is not a valid document, or comes from a newer format version is
///   a ``PersistenceError`` naming the path; the file is never written, moved or deleted by a
///   load, so nothing is lost.
/// - An older format version is migrated in memory; the file is rewritten in the current format
///   only by the next save.
/// - A save writes a temporary file beside the target, flushes it to disk, renames it over the
///   target and flushes the folder (see ``AtomicFile``): after a crash the file holds the old
///   document or the new one, never a mix.
///
/// Loading and saving run off the caller's actor (`@concurrent`): encoding a large document does
/// not block the main actor.
public struct DocumentFile<Document: Codable & Sendable>: Sendable {
    /// Where the document lives.
    public let url: URL
    /// The format it is stored in.
    public let format: FileFormat<Document>

    /// Describes a document file; nothing is read or written yet.
    public init(url: URL, format: FileFormat<Document>) {
        self.url = url
        self.format = format
    }

    /// The file's path, as errors show it.
    public var path: String { url.path }

    /// Reads the document, migrating an older format.
    ///
    /// - Returns: The document, or `nil` if the file does not exist.
    /// - Throws: ``PersistenceError``; the file is left untouched.
    @concurrent
    public func load() async throws(PersistenceError) -> Document? {
        guard let data = try AtomicFile.read(url) else { return nil }
        return try decode(data)
    }

    /// Writes `document` in the current format, atomically and durably.
    ///
    /// - Throws: ``PersistenceError/unwritable(path:reason:)``; the previous file is intact.
    @concurrent
    public func save(_ document: Document) async throws(PersistenceError) {
        try AtomicFile.write(encode(document), to: url)
    }

    /// The bytes a save writes: the envelope with the current version.
    func encode(_ document: Document) throws(PersistenceError) -> Data {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return try encoder.encode(
                Envelope(formatVersion: format.currentVersion, document: document))
        } catch {
            throw .unwritable(path: path, reason: "the document cannot be encoded: \(error)")
        }
    }

    /// The document in `data`, as a load finds it.
    func decode(_ data: Data) throws(PersistenceError) -> Document {
        let version: Int
        do {
            version = try JSONDecoder().decode(Header.self, from: data).formatVersion
        } catch {
            throw .corrupt(path: path, reason: JSONSyntax.problem(in: data) ?? Self.explain(error))
        }
        if version > format.currentVersion {
            throw .newerVersion(path: path, found: version, supported: format.currentVersion)
        }
        if version == format.currentVersion {
            do {
                return try JSONDecoder().decode(Envelope.self, from: data).document
            } catch {
                throw .corrupt(path: path, reason: Self.explain(error))
            }
        }
        let object: [String: Any]?
        do {
            object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        } catch {
            throw .corrupt(path: path, reason: Self.explain(error))
        }
        guard let document = object?["document"],
            let documentJSON = try? JSONSerialization.data(
                withJSONObject: document, options: [.fragmentsAllowed])
        else {
            throw .corrupt(path: path, reason: "it has no document")
        }
        do {
            return try format.migrate(version, documentJSON)
        } catch {
            throw .migrationFailed(path: path, fromVersion: version, reason: Self.explain(error))
        }
    }

    /// A decoding error in a few words, with the place it happened where the decoder says it.
    private static func explain(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context):
            let detail = context.underlyingError.map { "\($0)" } ?? context.debugDescription
            return context.codingPath.isEmpty
                ? detail : "\(describe(context.codingPath)): \(detail)"
        case DecodingError.keyNotFound(let key, let context):
            return "\(describe(context.codingPath + [key])) is missing"
        case DecodingError.typeMismatch(_, let context),
            DecodingError.valueNotFound(_, let context):
            return "\(describe(context.codingPath)): \(context.debugDescription)"
        default:
            return "\(error)"
        }
    }

    private static func describe(_ path: [any CodingKey]) -> String {
        let components = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }
        return components.isEmpty
            ? "the top level" : "the field " + components.joined().drop { $0 == "." }
    }

    private struct Header: Decodable {
        var formatVersion: Int
    }

    private struct Envelope: Codable {
        var formatVersion: Int
        var document: Document
    }
}
