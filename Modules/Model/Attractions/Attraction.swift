public import Foundation

/// A place on a tourist's list: a name, and notes on why it is worth the visit.
///
/// A plain value: `Sendable` to cross tasks, `Codable` to persist, `Equatable` so that a store can
/// tell a real edit from a no-op. Its ``id`` never changes, so an attraction can be found again
/// after the list was reordered or edited.
public struct Attraction: ListElement, Codable {
    /// Identifies one attraction for as long as it exists.
    public struct ID: Sendable, Codable, Hashable, LosslessStringConvertible {
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

        /// The UUID string, in upper case.
        ///
        /// Written by hand, not with `uuidString`, which goes through `sprintf` on Linux: every
        /// edit of a database finds its row by this text, and opening checks a million of them.
        public var description: String {
            var text: [UInt8] = []
            text.reserveCapacity(36)
            withUnsafeBytes(of: rawValue.uuid) { bytes in
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text.append(UInt8(ascii: "-"))
                    }
                    text.append(Self.hexDigit(byte >> 4))
                    text.append(Self.hexDigit(byte & 0x0F))
                }
            }
            return String(decoding: text, as: UTF8.self)
        }

        private static func hexDigit(_ value: UInt8) -> UInt8 {
            value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
        }

        /// The id a ``description`` names, as a database row stores it; `nil` for any other text.
        ///
        /// Read by hand, not with `UUID(uuidString:)`, which is many times slower on Linux (it
        /// goes through `sscanf`), and a database of a million rows reads a million of them.
        public init?(_ description: String) {
            // The 32 digits, read into two halves of 16 (dashes only where `description` puts
            // them), without building an array: this runs a million times.
            guard description.utf8.count == 36 else { return nil }
            var high: UInt64 = 0
            var low: UInt64 = 0
            var digits = 0
            var offset = -1
            for character in description.utf8 {
                offset += 1
                if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                    guard character == UInt8(ascii: "-") else { return nil }
                    continue
                }
                guard let digit = Self.hexValue(character) else { return nil }
                if digits < 16 {
                    high = high << 4 | UInt64(digit)
                } else {
                    low = low << 4 | UInt64(digit)
                }
                digits += 1
            }
            func byte(_ index: Int) -> UInt8 {
                let half = index < 8 ? high : low
                return UInt8(truncatingIfNeeded: half >> (56 - 8 * (index % 8)))
            }
            self.init(
                rawValue: UUID(
                    uuid: (
                        byte(0), byte(1), byte(2), byte(3), byte(4), byte(5), byte(6), byte(7),
                        byte(8), byte(9), byte(10), byte(11), byte(12), byte(13), byte(14),
                        byte(15)
                    )))
        }

        private static func hexValue(_ character: UInt8) -> UInt8? {
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
            default: nil
            }
        }
    }

    /// Identifies this attraction.
    public let id: ID
    /// What the attraction is called: never empty, at most ``AttractionRules/maximumNameLength``
    /// characters, once validated.
    public var name: String
    /// Free-form notes; may be empty.
    public var notes: String

    /// Creates an attraction; see ``ElementDraft`` for creating one from user input.
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
    /// here and nowhere else.
    public static let fields: [ElementField<Attraction>] = [
        ElementField("name", \.name, rule: AttractionRules.nameProblems),
        ElementField("notes", \.notes, rule: AttractionRules.notesProblems),
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
