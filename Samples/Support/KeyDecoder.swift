/// A key a user pressed, as the line editor understands it.
public enum Key: Equatable, Sendable {
    /// A printable character to insert.
    case text(Character)
    /// Return or Enter: the line is done.
    case enter
    /// Backspace: delete the character before the cursor.
    case backspace
    /// Delete: delete the character under the cursor.
    case delete
    /// Control-D: end of input on an empty line, otherwise Delete.
    case controlD
    /// Control-U: clear the line.
    case clearLine
    /// Left arrow (or Control-B).
    case left
    /// Right arrow (or Control-F).
    case right
    /// Home (or Control-A).
    case home
    /// End (or Control-E).
    case end
    /// Up arrow (or Control-P): the previous line in the history.
    case up
    /// Down arrow (or Control-N): the next line in the history.
    case down
}

/// Turns the bytes a terminal sends into keys, one byte at a time.
///
/// Escape sequences (`ESC [ … final`, `ESC O x`) and control strings (`ESC ] … BEL`, such as a
/// window title) are consumed whole: the keys the editor knows become keys, everything else is
/// dropped, so no part of a sequence ever lands in a command. UTF-8 is
/// decoded across bytes; other control characters are dropped, a tab becomes a space.
public struct KeyDecoder: Equatable, Sendable {
    private var pending: [UInt8] = []
    /// The longest escape sequence kept; a longer one is dropped whole.
    private static let longestSequence = 32
    /// The longest control string dropped as one; what follows a longer one is read as keys.
    private static let longestString = 4096
    /// What may follow ESC to begin a sequence: CSI, SS3, and the control strings.
    private static let sequenceIntroducers: Set<UInt8> = Set("[O]P_^X".utf8)
    /// What begins a control string (OSC, DCS, APC, PM, SOS), ended by BEL or ESC \.
    private static let stringIntroducers: Set<UInt8> = Set("]P_^X".utf8)

    /// A decoder with nothing pending.
    public init() {}

    /// Takes one byte; returns the key it completes, if any.
    ///
    /// - Parameter byte: The next byte from the terminal.
    /// - Returns: The key the byte completes, or `nil` while a sequence is incomplete or dropped.
    public mutating func feed(_ byte: UInt8) -> Key? {
        guard let first = pending.first else { return start(byte) }
        if first == 0x1B { return continueEscape(byte) }
        return continueUTF8(byte)
    }

    /// Decodes all of `bytes`.
    ///
    /// - Parameter bytes: Bytes from the terminal, in order.
    /// - Returns: The keys they complete.
    public mutating func keys(_ bytes: some Sequence<UInt8>) -> [Key] {
        bytes.compactMap { feed($0) }
    }

    private mutating func start(_ byte: UInt8) -> Key? {
        switch byte {
        case 0x1B, 0xC2...0xF4:
            pending = [byte]
            return nil
        case 0x0D, 0x0A: return .enter
        case 0x7F, 0x08: return .backspace
        case 0x09: return .text(" ")
        case 0x01: return .home
        case 0x02: return .left
        case 0x04: return .controlD
        case 0x05: return .end
        case 0x06: return .right
        case 0x0E: return .down
        case 0x10: return .up
        case 0x15: return .clearLine
        case 0x20...0x7E: return .text(Character(Unicode.Scalar(byte)))
        default: return nil  // other control characters, stray continuation bytes
        }
    }

    private mutating func continueEscape(_ byte: UInt8) -> Key? {
        if pending.count == 1 {
            guard Self.sequenceIntroducers.contains(byte) else {
                // ESC and another key (Alt+key): both dropped.
                pending = []
                return nil
            }
            pending.append(byte)
            return nil
        }
        if Self.stringIntroducers.contains(pending[1]) {
            // A control string (a window title, say): dropped whole, up to BEL or ESC \.
            let ends = byte == 0x07 || (byte == UInt8(ascii: "\\") && pending.last == 0x1B)
            pending.append(byte)
            if ends || pending.count > Self.longestString { pending = [] }
            return nil
        }
        pending.append(byte)
        if pending[1] == UInt8(ascii: "O") {
            defer { pending = [] }
            return Self.finalKey(byte, parameters: [])
        }
        // CSI: parameter and intermediate bytes, then one final byte.
        if (0x40...0x7E).contains(byte) {
            defer { pending = [] }
            return Self.finalKey(byte, parameters: Array(pending[2..<(pending.count - 1)]))
        }
        if !(0x20...0x3F).contains(byte) || pending.count > Self.longestSequence {
            pending = []
        }
        return nil
    }

    private static func finalKey(_ final: UInt8, parameters: [UInt8]) -> Key? {
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "~"):
            switch String(decoding: parameters, as: UTF8.self) {
            case "1", "7": return .home
            case "4", "8": return .end
            case "3": return .delete
            default: return nil
            }
        default: return nil
        }
    }

    private mutating func continueUTF8(_ byte: UInt8) -> Key? {
        guard (0x80...0xBF).contains(byte) else {
            // Not a continuation: the broken character is dropped and this byte starts afresh.
            pending = []
            return start(byte)
        }
        pending.append(byte)
        let lead = pending[0]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        guard pending.count == length else { return nil }
        defer { pending = [] }
        var decoded = String(decoding: pending, as: UTF8.self).unicodeScalars.makeIterator()
        guard let scalar = decoded.next(), scalar != "\u{FFFD}",
            !(0x80...0x9F).contains(scalar.value)
        else { return nil }
        return .text(Character(scalar))
    }
}
