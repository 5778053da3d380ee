public import Foundation
public import MVCElements

/// A place on a tourist's list: a name, and notes on why it is worth the visit.
///
/// A plain value: `Sendable` to cross tasks, `Codable` to persist, `Equatable` so that a store can
/// tell a real edit from a no-op. Its ``id`` never changes, so an attraction can be found again
/// after the list was reordered or edited.
public struct Attraction: ListElement, Codable {
    /// Identifies one attraction for as long as it exists.
    public struct ID: Sendable, Codable, Hashable {
        /// The underlying unique value.
        public let rawValue: UUID

        /// Wraps an existing unique value (as read from a file).
        public init(rawValue: UUID) {
            self.rawValue = rawValue
        }

        /// A new id, unlike any other: a random (version 4) UUID.
        ///
        /// Its bits come from the standard library's generator (`getrandom` on Linux), not from
        /// Foundation's `UUID()`, which reads `/dev/urandom` there and, with no file descriptor
        /// left to open it, gives every new id the same zero bits without failing.
        public init() {
            var generator = SystemRandomNumberGenerator()
            var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &bytes) { buffer in
                for index in buffer.indices { buffer[index] = generator.next() }
                buffer[6] = buffer[6] & 0x0F | 0x40  // version 4: random
                buffer[8] = buffer[8] & 0x3F | 0x80  // the variant RFC 9562 describes
            }
            self.rawValue = UUID(uuid: bytes)
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
    }

    /// Identifies this attraction.
    public let id: ID
    /// What the attraction is called: never empty, at most ``AttractionRules/maximumNameLength``
    /// characters, once validated.
    public var name: String
    /// Free-form notes; may be empty.
    public var notes: String

    /// Creates an attraction; see ``/MVCElements/ElementDraft`` for creating one from user input.
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

    // MARK: The description generic code works from

    /// The editable fields: the one place that lists them.
    ///
    /// Editing, undo, merging and the file format all go over this list, so a new field is added
    /// here, with its problems in ``AttractionValidationError`` (whose `Field` names it for them).
    public static let fields: [ElementField<Attraction>] = [
        ElementField("name", \.name, rule: AttractionRules.nameProblems),
        ElementField("notes", \.notes, listed: true, rule: AttractionRules.notesProblems),
    ]

    /// Reads the fields ``fields`` lists; one a file does not have keeps its default.
    public init(from decoder: any Decoder) throws {
        self = try Self.decodeFields(from: decoder)
    }

    /// Writes `id` and the fields ``fields`` lists.
    public func encode(to encoder: any Encoder) throws {
        try encodeFields(to: encoder)
    }

    /// An attraction with no name and no notes (not valid until it gets a name).
    public init(blankWithID id: ID) {
        self.init(id: id, name: "")
    }

    /// "attraction", as messages name one.
    public static var noun: String { "attraction" }

    /// The name, as labels ("Delete “Louvre”") and notices show it.
    public var title: String { name }
}
