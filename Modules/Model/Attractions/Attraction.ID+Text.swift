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
        // Upper case only, as `description` writes: another spelling of the id is not its text.
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
