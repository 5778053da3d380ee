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
/// Escape sequences (`ESC [ … final`, `ESC O x`, and their 8-bit forms) and control strings
/// (`ESC ] 0;title BEL`) are consumed whole: the keys the editor knows become keys, everything
/// else is dropped, so no part of a sequence ever lands in a command, however long it is. ESC
/// followed by an ordinary key (Alt+key, or Esc then a key) drops the ESC and keeps the key.
/// UTF-8 is decoded across bytes; other control characters are dropped, a tab becomes a space.
public struct KeyDecoder: Equatable, Sendable {
    private enum Mode: Equatable, Sendable {
        case idle
        /// After ESC.
        case escape
        /// Inside `ESC [` (or 8-bit CSI): parameter bytes so far, unless too many to keep.
        case controlSequence([UInt8], discarding: Bool)
        /// After `ESC O` (or 8-bit SS3): one final byte follows.
        case singleShift
        /// After `ESC ]`: a control string (a window title) begins with a digit; anything else
        /// was Alt+] and a key.
        case controlStringStart
        /// Inside a control string (`ESC ] …`), until BEL or `ESC \`.
        case controlString(afterEscape: Bool)
        /// Inside a UTF-8 character: the bytes so far.
        case character([UInt8])
    }

    private var mode = Mode.idle
    /// The bytes that may end `ESC O`.
    private static let singleShiftFinals: Set<UInt8> = Set("ABCDHFPQRSMjklmnopqrstuvwxyX".utf8)
    /// The most parameter bytes kept for a sequence; a longer one is consumed but not kept.
    private static let longestParameters = 32

    /// A decoder with nothing pending.
    public init() {}

    /// Takes one byte; returns the key it completes, if any.
    ///
    /// - Parameter byte: The next byte from the terminal.
    /// - Returns: The key the byte completes, or `nil` while a sequence is incomplete or dropped.
    public mutating func feed(_ byte: UInt8) -> Key? {
        switch mode {
        case .idle:
            return start(byte)
        case .escape:
            switch byte {
            case UInt8(ascii: "["):
                mode = .controlSequence([], discarding: false)
            case UInt8(ascii: "O"):
                mode = .singleShift
            case UInt8(ascii: "]"):
                mode = .controlStringStart
            case 0x1B:
                mode = .escape  // ESC ESC: the first is dropped, the second may start a sequence
            default:
                // Esc then a key, or Alt+key: the ESC is dropped, the key kept.
                mode = .idle
                return start(byte)
            }
            return nil
        case .controlSequence(var parameters, let discarding):
            if (0x40...0x7E).contains(byte) {
                mode = .idle
                return discarding ? nil : Self.finalKey(byte, parameters: parameters)
            }
            guard (0x20...0x3F).contains(byte) else {
                // Not part of a sequence: it ends the broken one and is read afresh.
                mode = .idle
                return start(byte)
            }
            if discarding || parameters.count >= Self.longestParameters {
                mode = .controlSequence([], discarding: true)
            } else {
                parameters.append(byte)
                mode = .controlSequence(parameters, discarding: false)
            }
            return nil
        case .singleShift:
            mode = .idle
            // SS3 finals: the arrows, Home and End, F1–F4 and the keypad; anything else was
            // Alt+O and a key, which is kept.
            guard Self.singleShiftFinals.contains(byte) else { return start(byte) }
            return Self.finalKey(byte, parameters: [])
        case .controlStringStart:
            guard (0x30...0x39).contains(byte) else {
                mode = .idle
                return start(byte)
            }
            mode = .controlString(afterEscape: false)
            return nil
        case .controlString(let afterEscape):
            if byte == 0x07 || (afterEscape && byte == UInt8(ascii: "\\")) {
                mode = .idle
            } else if byte == 0x0D || byte == 0x0A {
                // A control string never holds a line break: the user pressed Enter.
                mode = .idle
                return .enter
            } else {
                mode = .controlString(afterEscape: byte == 0x1B)
            }
            return nil
        case .character(var bytes):
            return continueCharacter(byte, after: &bytes)
        }
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
        case 0x1B:
            mode = .escape
            return nil
        case 0xC2...0xF4:
            mode = .character([byte])
            return nil
        case 0x9B:  // CSI as one 8-bit byte
            mode = .controlSequence([], discarding: false)
            return nil
        case 0x8F:  // SS3 as one 8-bit byte
            mode = .singleShift
            return nil
        case 0x90, 0x98, 0x9D, 0x9E, 0x9F:  // DCS, SOS, OSC, PM, APC as one 8-bit byte
            mode = .controlString(afterEscape: false)
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

    private mutating func continueCharacter(_ byte: UInt8, after bytes: inout [UInt8]) -> Key? {
        guard (0x80...0xBF).contains(byte) else {
            // Not a continuation: the broken character is dropped and this byte starts afresh.
            mode = .idle
            return start(byte)
        }
        bytes.append(byte)
        let lead = bytes[0]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        guard bytes.count == length else {
            mode = .character(bytes)
            return nil
        }
        mode = .idle
        var decoded = String(decoding: bytes, as: UTF8.self).unicodeScalars.makeIterator()
        guard let scalar = decoded.next(), scalar != "\u{FFFD}" else { return nil }
        switch scalar.value {
        case 0x9B:  // CSI, 8-bit
            mode = .controlSequence([], discarding: false)
            return nil
        case 0x8F:  // SS3, 8-bit
            mode = .singleShift
            return nil
        case 0x9D, 0x90, 0x98, 0x9E, 0x9F:  // OSC, DCS, SOS, PM, APC, 8-bit
            mode = .controlString(afterEscape: false)
            return nil
        case 0x80...0x9F:
            return nil
        default:
            return .text(Character(scalar))
        }
    }
}
