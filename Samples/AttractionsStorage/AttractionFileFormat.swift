import Foundation
public import MVCDocumentStore
import MVCElements
public import MVCModel

extension Attraction: DocumentListElement {
    /// The attractions file format: ``FileFormat/attractions``.
    public static var documentFormat: FileFormat<[Attraction]> { .attractions }
}

extension FileFormat where Document == [Attraction] {
    /// The attractions file format.
    ///
    /// - Version 1 stored names only: `[{"id": "<uuid>", "name": "..."}]`.
    /// - Version 2 (current) stores `id` and every field `Attraction.fields` lists:
    ///   `[{"id": ..., "name": ..., "notes": ...}]`.
    ///
    /// A field added to `Attraction.fields` with a default needs no new version: a row without it
    /// loads with the default, and a build that does not know the field refuses a file that has
    /// it, naming the field. A new version is for a change that is not additive (a field renamed,
    /// split, or given a new meaning), with a migration from the version before.
    ///
    /// Every row must keep the rules an editor enforces (`Attraction.problems`), no two rows may
    /// share an id, and a row may hold no field but its version's, each once (a save would drop
    /// the rest); a file that breaks them is refused, naming the row or line and the field, and
    /// left untouched. There is no silent repair: a hand-edited file is the user's to fix.
    public static var attractions: FileFormat<[Attraction]> {
        FileFormat(
            currentVersion: 2,
            migrate: { version, json in
                switch version {
                case 1:
                    return try JSONDecoder().decode([AttractionVersion1].self, from: json).map {
                        Attraction(id: $0.id, name: $0.name, notes: "")
                    }
                default:
                    throw UnknownFormatVersion(version: version)
                }
            },
            validate: firstBrokenRule,
            fieldNames: [1: ["id", "name"], 2: Attraction.storedFieldNames]
        )
    }

    /// The first row that breaks a rule, named by row (from 1) and field, if any.
    ///
    /// - Complexity: O(*n*) in the size of the document.
    @Sendable
    static func firstBrokenRule(in attractions: [Attraction]) -> String? {
        var ids = Set<Attraction.ID>(minimumCapacity: attractions.count)
        for (index, attraction) in attractions.enumerated() {
            if let problem = attraction.problems.first {
                return "row \(index + 1), field “\(problem.field.rawValue)”: \(problem.description)"
            }
            if !ids.insert(attraction.id).inserted {
                let earlier = attractions.firstIndex { $0.id == attraction.id } ?? index
                return "rows \(earlier + 1) and \(index + 1) have the same id \(attraction.id)"
            }
        }
        return nil
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
