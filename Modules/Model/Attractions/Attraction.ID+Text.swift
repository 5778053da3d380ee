import Foundation

/// An attraction's id as text: the form a database row stores and a message shows.
///
/// Tuning, not the idea: both directions are written by hand, because a database of a million
/// rows reads and writes a million of them, and Foundation's `uuidString` and
/// `UUID(uuidString:)` go through `sprintf` and `sscanf` on Linux.
extension Attraction.ID: LosslessStringConvertible {
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
        // Read from the string's own UTF-8 (no copy for a native string), not through its
        // `utf8` view, whose per-byte steps were most of the time a million ids took.
        var text = description
        guard let uuid = text.withUTF8(Self.uuid) else { return nil }
        self.init(rawValue: UUID(uuid: uuid))
    }

    /// The UUID `text` spells: 32 upper-case digits in groups of 8, 4, 4, 4 and 12, dashes only
    /// where ``description`` puts them.
    ///
    /// Without a branch on each character's kind: a random id's digits and letters mispredicted
    /// about one branch in three, which cost 0.25 µs an id.
    private static func uuid(_ text: UnsafeBufferPointer<UInt8>) -> uuid_t? {
        guard text.count == 36, text[8] == dash, text[13] == dash, text[18] == dash,
            text[23] == dash
        else { return nil }
        var (high, low): (UInt64, UInt64) = (0, 0)
        var (digits, isValid) = (0, true)
        for offset in 0..<36 where offset != 8 && offset != 13 && offset != 18 && offset != 23 {
            // Upper case only, as `description` writes: another spelling is not the id's text.
            let character = UInt64(text[offset])
            let (isDigit, isLetter) = (character &- 0x30 < 10, character &- 0x41 < 6)
            isValid = isValid && isDigit != isLetter
            // "0" to "9" are 0x30 to 0x39, "A" to "F" 0x41 to 0x46: a letter's bit 6 adds its 9.
            let digit = character & 0x0F &+ 9 &* (character >> 6)
            if digits < 16 {
                high = high << 4 | digit
            } else {
                low = low << 4 | digit
            }
            digits += 1
        }
        guard isValid else { return nil }
        func byte(_ index: Int) -> UInt8 {
            let half = index < 8 ? high : low
            return UInt8(truncatingIfNeeded: half >> (56 - 8 * (index % 8)))
        }
        return (
            byte(0), byte(1), byte(2), byte(3), byte(4), byte(5), byte(6), byte(7), byte(8),
            byte(9), byte(10), byte(11), byte(12), byte(13), byte(14), byte(15)
        )
    }

    private static var dash: UInt8 { UInt8(ascii: "-") }
}
