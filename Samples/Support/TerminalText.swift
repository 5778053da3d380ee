/// Text from anywhere — typed, read from a file an older version wrote, sent by a server, quoted
/// in an error — made safe to print on a terminal.
///
/// A terminal obeys control characters instead of showing them: an escape sequence in a name
/// could recolour the screen, retitle the window or move the cursor. Every such character is
/// shown visibly instead: C0 controls and delete in caret notation (`^[` for escape, `^G` for
/// bell, `^?` for delete), C1 controls and the invisible bidirectional overrides (which can make
/// text read backwards) as `\u{…}`. Everything else passes unchanged.
///
/// Escaping belongs here, in the terminal front end: view-state keeps the text as it is, and a
/// SwiftUI view would show it safely with no escaping at all.
public enum TerminalText {
    /// `text` with every control character made visible.
    ///
    /// - Complexity: O(*n*); returns `text` itself when nothing needs escaping.
    public static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscaping) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x00...0x1F: result += "^" + String(UnicodeScalar(UInt8(scalar.value + 0x40)))
            case 0x7F: result += "^?"
            case _ where needsEscaping(scalar):
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func needsEscaping(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}

extension String {
    /// The string with every control character made visible; see ``TerminalText``.
    public var terminalSafe: String { TerminalText.visible(self) }
}
