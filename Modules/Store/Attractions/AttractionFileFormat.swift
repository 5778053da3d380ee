public import Foundation
public import MVCModel
public import MVCObservation

extension FileFormat where Document == [Attraction] {
    /// The attractions file format.
    ///
    /// - Version 1 stored names only: `[{"id": "<uuid>", "name": "..."}]`.
    /// - Version 2 (current) adds notes: `[{"id": ..., "name": ..., "notes": ...}]`.
    public static var attractions: FileFormat<[Attraction]> {
        FileFormat(currentVersion: 2) { version, json in
            switch version {
            case 1:
                return try JSONDecoder().decode([AttractionVersion1].self, from: json).map {
                    Attraction(id: $0.id, name: $0.name, notes: "")
                }
            default:
                throw UnknownFormatVersion(version: version)
            }
        }
    }
}

/// An attraction as format version 1 stored it.
private struct AttractionVersion1: Decodable {
    var id: Attraction.ID
    var name: String
}

/// A format version older than the current one that no migration knows.
struct UnknownFormatVersion: Error, CustomStringConvertible {
    var version: Int
    var description: String { "no migration from format version \(version) exists" }
}

extension AttractionStore {
    /// Opens the attractions saved at `url` (an empty list if there is no file yet), with a saver
    /// that writes every change back to it.
    ///
    /// - Parameters:
    ///   - url: The attractions file.
    ///   - delay: How long the saver waits after a change for more changes.
    ///   - sleep: How the saver waits; injected by tests.
    ///   - tracer: Told each hop the store makes.
    /// - Returns: The store and its saver; call the saver's `flush()` before exiting.
    /// - Throws: ``PersistenceError`` if the file exists but cannot be loaded; nothing is written.
    public static func open(
        at url: URL,
        delay: Duration = .milliseconds(300),
        sleep: @escaping CoalescingSaver<[Attraction]>.Sleep = { try await Task.sleep(for: $0) },
        tracer: HopTracer = .disabled
    ) async throws(PersistenceError) -> (
        store: AttractionStore, saver: CoalescingSaver<[Attraction]>
    ) {
        let file = DocumentFile(url: url, format: .attractions)
        let attractions = try await file.load() ?? []
        let saver = CoalescingSaver(file: file, delay: delay, sleep: sleep)
        return (AttractionStore(attractions: attractions, saver: saver, tracer: tracer), saver)
    }
}
