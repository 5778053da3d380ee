public import Foundation
import MVCElements
public import MVCListStore

/// One `Codable` document in one file: loaded whole, saved whole, atomically and durably.
///
/// - A missing file loads as `nil` (a new, empty document is the caller's call).
/// - A file that cannot be read, is not a valid document, or comes from a newer format version is
///   a ``/MVCListStore/PersistenceError`` naming the path; the file is never written, moved or deleted by a
///   load, so nothing is lost.
/// - An older format version is migrated in memory; the file is rewritten in the current format
///   only by the next save.
/// - A save writes a temporary file beside the target, flushes it to disk, renames it over the
///   target and flushes the folder (see `AtomicFile`): after a crash the file holds the old
///   document or the new one, never a mix.
/// - Each save names itself and the saves its version came after (see ``SaveHistory``; the file's
///   layout is ``FileFormat``'s). A file written before saves were named still loads.
///
/// Loading and saving run off the caller's actor (`@concurrent`): encoding a large document does
/// not block the main actor. The calls that block their thread (reading, writing, `fsync`,
/// waiting for another process's lock) never run on the cooperative pool (see `BlockingFileWork`).
public struct DocumentFile<Document: Codable & Sendable>: Sendable {
    /// Where the document lives.
    public let url: URL
    /// The format it is stored in.
    public let format: FileFormat<Document>
    /// The file-system calls a shared save replaces the file with: the real ones, unless a test
    /// plays another program acting between two of them.
    package var replacementSteps: any FileReplacementSteps = POSIXReplacementSteps()

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
    /// - Throws: ``/MVCListStore/PersistenceError``; the file is left untouched.
    @concurrent
    public func load() async throws(PersistenceError) -> Document? {
        try await BlockingFileWork.run { () throws(PersistenceError) in try AtomicFile.read(url) }
            .map(decode)
    }

    /// Writes `document` in the current format, atomically and durably, over whatever the file
    /// holds; after its own save, it names those of the file it replaces, if that can be read.
    ///
    /// The save holds the document's lock (see ``save(_:over:merge:)``), so it never interleaves
    /// with another process's save, and removes the temporary files a killed save left behind.
    ///
    /// - Returns: Whether the new file is known to be on disk (see ``SaveDurability``).
    /// - Throws: ``/MVCListStore/PersistenceError/unwritable(path:reason:)``; the previous file is intact.
    @concurrent
    @discardableResult
    public func overwrite(with document: Document) async throws(PersistenceError) -> SaveDurability
    {
        try await BlockingFileWork.run { () throws(PersistenceError) in
            try overwrite(with: document, steps: POSIXReplacementSteps())
        }
    }

    /// Writes `document` as a new file, never over a file already there.
    ///
    /// The check and the write both hold the document's lock, as every save does: of two
    /// programs that create the same file, or one that creates it while another saves it, one
    /// is refused.
    ///
    /// - Throws: ``/MVCListStore/PersistenceError/unwritable(path:reason:)`` if a file is already
    ///   there (it is left as it is), or the file cannot be written.
    @concurrent
    public func create(_ document: Document) async throws(PersistenceError) {
        try await BlockingFileWork.run { () throws(PersistenceError) in
            try create(document, steps: POSIXReplacementSteps())
        }
    }

    /// Creates the file as ``create(_:)`` does, through `steps`, so a test can act between them.
    package func create(_ document: Document, steps: any FileReplacementSteps)
        throws(PersistenceError)
    {
        _ = try write(document, replacing: false, steps: steps)
    }

    /// Writes `document` as ``overwrite(with:)`` does, through `steps` instead of the real
    /// file-system calls, so a test can record them and check every state a power cut could leave.
    @discardableResult
    package func overwrite(with document: Document, steps: any FileReplacementSteps)
        throws(PersistenceError) -> SaveDurability
    {
        try write(document, replacing: true, steps: steps)
    }

    /// Writes `document` under the document's lock; unless `replacing`, only where no file is.
    private func write(_ document: Document, replacing: Bool, steps: any FileReplacementSteps)
        throws(PersistenceError) -> SaveDurability
    {
        try underLock { held, target throws(PersistenceError) in
            var status = stat()
            if !replacing, lstat(target, &status) == 0 {
                throw .unwritable(
                    path: path, reason: "a file is already there; it was left as it is")
            }
            // Whatever another save wrote meanwhile, this one replaces it.
            let old = replacing ? (try? AtomicFile.read(url)).flatMap { history(in: $0) } : nil
            let bytes = try encode(document, history: (old ?? SaveHistory()).savedAgain())
            // A lock file deleted meanwhile let another save in: one that creates the file makes
            // this create's refusal stand.
            return try AtomicFile.write(bytes, to: url, steps: steps) {
                held.confirm {
                    var found = stat()
                    return replacing || lstat(target, &found) != 0
                }
            }
        }
    }

    /// Runs `body` as every save of the document does, with `body` given the lock and the path
    /// the save really writes (links followed): that path resolved, its folder made, the
    /// document's lock held, and the temporary files of interrupted saves removed.
    func underLock<Result>(
        _ body: (FileLock.Held, String) throws(PersistenceError) -> Result
    ) throws(PersistenceError) -> Result {
        let target = try AtomicFile.resolvedPath(url)
        try AtomicFile.createFolder(
            URL(fileURLWithPath: target).deletingLastPathComponent(), for: url)
        return try FileLock.withLock(forDocumentAt: target, reportedAs: path) {
            held throws(PersistenceError) in
            AtomicFile.removeLeftovers(ofDocumentAt: target)
            return try body(held, target)
        }
    }

    /// The bytes a save writes: the envelope with the current version and `history`.
    package func encode(_ document: Document, history: SaveHistory) throws(PersistenceError)
        -> Data
    {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return try encoder.encode(
                Envelope(
                    formatVersion: format.currentVersion, document: document,
                    saves: history.saves))
        } catch {
            throw .unwritable(path: path, reason: "the document cannot be encoded: \(error)")
        }
    }

    /// The document in `data`, as a load finds it.
    package func decode(_ data: Data) throws(PersistenceError) -> Document {
        try decodeWithHistory(data).document
    }

    /// The saves `data` names, read without decoding the document; `nil` if it cannot be read.
    private func history(in data: Data) -> SaveHistory? {
        (try? JSONDecoder().decode(SavesField.self, from: data)).map { SaveHistory($0.saves ?? []) }
    }

    /// The document in `data`, as a load finds it, and the saves the file names.
    package func decodeWithHistory(_ data: Data) throws(PersistenceError)
        -> (document: Document, history: SaveHistory)
    {
        let envelope: VersionedEnvelope
        do {
            envelope = try JSONDecoder().decode(VersionedEnvelope.self, from: data)
        } catch {
            throw .corrupt(
                path: path,
                reason: JSONSyntax.problem(in: data) ?? fieldNameProblem(in: data, version: nil)
                    ?? Self.explain(error))
        }
        if envelope.formatVersion > format.currentVersion {
            throw .newerVersion(
                path: path, found: envelope.formatVersion, supported: format.currentVersion)
        }
        let document: Document
        if let problem = fieldNameProblem(in: data, version: envelope.formatVersion) {
            throw .corrupt(path: path, reason: problem)
        }
        if envelope.formatVersion == format.currentVersion {
            do {
                document = try envelope.document.get()
            } catch {
                // The decoder reads a string's bytes only when it decodes that string, so a file
                // that is not UTF-8 can fail here, in the decoder's internal terms.
                throw .corrupt(
                    path: path, reason: JSONSyntax.problem(in: data) ?? Self.explain(error))
            }
        } else {
            document = try migrate(data, from: envelope.formatVersion)
        }
        if let problem = format.validate(document) {
            throw .brokenRule(path: path, reason: problem)
        }
        return (document, SaveHistory(envelope.saves))
    }

    /// A field a save would lose, with its line and column, when the format names the fields of
    /// `version`'s document; with no version, of every version's, so that the scan knows every
    /// name inside the document (`nil` if the format names none).
    private func fieldNameProblem(in data: Data, version: Int?) -> String? {
        let names =
            version.map { format.fieldNames[$0] }
            ?? (format.fieldNames.isEmpty ? nil : Set(format.fieldNames.values.joined()))
        guard let names else { return nil }
        return JSONSyntax.fieldNameProblem(
            in: data, topLevel: ["formatVersion", "document", "saves"], document: names)
    }

    /// Converts an older version's document, handed to the format as the raw JSON of its field.
    private func migrate(_ data: Data, from version: Int) throws(PersistenceError) -> Document {
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
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
        case DecodingError.typeMismatch(let type, let context):
            // The decoder's words name Swift types ("Dictionary<String, Any>"); say JSON's.
            let found = context.debugDescription.range(of: "but found ").map {
                " but found "
                    + context.debugDescription[$0.upperBound...]
                    .replacingOccurrences(of: " instead.", with: "")
            }
            return "\(describe(context.codingPath)) should be \(jsonKind(of: type))\(found ?? "")"
        case DecodingError.valueNotFound(let type, let context):
            return "\(describe(context.codingPath)) is null where \(jsonKind(of: type)) should be"
        default:
            return "\(error)"
        }
    }

    /// What a Swift type is called in JSON's terms.
    private static func jsonKind(of type: Any.Type) -> String {
        let name = "\(type)"
        if name.hasPrefix("Dictionary") { return "an object" }
        if name.hasPrefix("Array") { return "a list" }
        if name == "Bool" { return "true or false" }
        if ["Int", "Double", "Float", "Decimal"].contains(where: { name.hasPrefix($0) }) {
            return "a number"
        }
        return "a string"
    }

    private static func describe(_ path: [any CodingKey]) -> String {
        let components = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }
        return components.isEmpty
            ? "the top level" : "the field " + components.joined().drop { $0 == "." }
    }

    private struct Envelope: Encodable {
        var formatVersion: Int
        var document: Document
        var saves: [String]
    }

    private struct SavesField: Decodable {
        var saves: [String]?
    }

    /// What a load reads, in one pass: the version, and the document decoded as the current
    /// version (which only counts if the version is current; an older one is migrated instead).
    private struct VersionedEnvelope: Decodable {
        var formatVersion: Int
        var document: Result<Document, any Error>
        var saves: [String]

        private enum CodingKeys: String, CodingKey {
            case formatVersion, document, saves
        }

        init(from decoder: any Decoder) throws {
            // A top-level field nobody reads would be dropped by the next save: refuse it.
            // Keyed by any field name, so that one this version does not know can be named.
            let fields = try decoder.container(keyedBy: FieldKey.self)
            if let unknown = fields.allKeys.first(where: {
                CodingKeys(stringValue: $0.stringValue) == nil
            }) {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: [],
                        debugDescription:
                            "it has a top-level field “\(unknown.stringValue)” that this version does "
                            + "not know (the fields are document, formatVersion and saves); "
                            + "a save would drop it"
                    ))
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if let version = try? container.decode(Int.self, forKey: .formatVersion) {
                formatVersion = version
            } else if let number = try? container.decode(Double.self, forKey: .formatVersion) {
                // The decoder's own words for this ("not valid JSON") send the user looking for
                // a syntax error that is not there.
                throw DecodingError.dataCorruptedError(
                    forKey: .formatVersion, in: container,
                    debugDescription: number.rounded() == number
                        ? "\(number) is far larger than any format version"
                        : "a format version is a whole number, not \(number)")
            } else {
                formatVersion = try container.decode(Int.self, forKey: .formatVersion)
            }
            saves = try Self.saves(in: container)
            document = Result { try container.decode(Document.self, forKey: .document) }
        }

        /// The saves the envelope names: a list of save ids as this package writes them, or
        /// none (a file written before saves were named).
        private static func saves(in container: KeyedDecodingContainer<CodingKeys>) throws
            -> [String]
        {
            guard container.contains(.saves) else { return [] }
            let problem = { (detail: String) in
                DecodingError.dataCorruptedError(
                    forKey: .saves, in: container, debugDescription: detail)
            }
            guard let saves = try? container.decode([String].self, forKey: .saves) else {
                throw problem("it should be a list of save ids, each a string")
            }
            // A save is named by a UUID (`SaveHistory.savedAgain()`): anything else was not
            // written by a save.
            if let bad = saves.firstIndex(where: { UUID(uuidString: $0) == nil }) {
                throw problem("save id \(bad + 1) is not a UUID, as a save writes")
            }
            return saves
        }
    }
}
