public import Foundation

/// A place on a tourist's list: a name, and notes on why it is worth the visit.
///
/// A plain value: `Sendable` to cross tasks, `Codable` to persist, `Equatable` so that a store can
/// tell a real edit from a no-op. Its ``id`` never changes, so an attraction can be found again
/// after the list was reordered or edited.
public struct Attraction: Sendable, Codable, Equatable, Identifiable {
    /// Identifies one attraction for as long as it exists.
    public struct ID: Sendable, Codable, Hashable, CustomStringConvertible {
        /// The underlying unique value.
        public let rawValue: UUID

        /// Wraps an existing unique value (as read from a file).
        public init(rawValue: UUID) {
            self.rawValue = rawValue
        }

        /// A new id, unlike any other.
        public init() {
            self.rawValue = UUID()
        }

        /// Encodes as the bare UUID string.
        public init(from decoder: any Decoder) throws {
            rawValue = try decoder.singleValueContainer().decode(UUID.self)
        }

        /// Encodes as the bare UUID string.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }

        /// The UUID string.
        public var description: String { rawValue.uuidString }
    }

    /// Identifies this attraction.
    public let id: ID
    /// What the attraction is called: never empty, at most ``AttractionRules/maximumNameLength``
    /// characters, once validated.
    public var name: String
    /// Free-form notes; may be empty.
    public var notes: String

    /// Creates an attraction; see ``AttractionDraft`` for creating one from user input.
    ///
    /// - Parameters:
    ///   - id: Its identity; a new one by default.
    ///   - name: What it is called.
    ///   - notes: Free-form notes.
    public init(id: ID = ID(), name: String, notes: String = "") {
        self.id = id
        self.name = name
        self.notes = notes
    }
}
