/// The state of one line being typed, and what each key does to it.
///
/// It holds the characters, the cursor, and the history of lines entered before. A pure value:
/// `TerminalInput` feeds it keys and draws it.
public struct LineEditor: Equatable, Sendable {
    /// What a key did to the line.
    public enum Outcome: Equatable, Sendable {
        /// The line is still being edited.
        case editing
        /// Enter: the line is done.
        case submitted(String)
        /// Control-D on an empty line: no more input.
        case endOfInput
    }

    /// The characters typed so far.
    public private(set) var line: [Character] = []
    /// Where the next character goes: 0 is before the first.
    public private(set) var cursor = 0
    /// The lines entered, oldest first (no blank lines, no immediate repeats).
    public private(set) var history: [String] = []
    /// Which history line is shown while browsing; `nil` when editing a new line.
    private var historyPosition: Int?
    /// The new line being typed before browsing began, restored by going past the newest.
    private var draft: [Character] = []

    /// An empty line with no history.
    public init() {}

    /// Applies one key.
    ///
    /// - Parameter key: The key pressed.
    /// - Returns: Whether the line goes on, is done, or input ended.
    public mutating func handle(_ key: Key) -> Outcome {
        switch key {
        case .text(let character):
            // A combining mark, a skin tone or a joiner belongs to the character before it: one
            // character on screen is one character to move over and delete.
            if cursor > 0, (String(line[cursor - 1]) + String(character)).count == 1 {
                line[cursor - 1] = Character(String(line[cursor - 1]) + String(character))
            } else {
                line.insert(character, at: cursor)
                cursor += 1
            }
        case .enter:
            let text = String(line)
            if !text.allSatisfy(\.isWhitespace), history.last != text { history.append(text) }
            line = []
            cursor = 0
            historyPosition = nil
            draft = []
            return .submitted(text)
        case .backspace:
            guard cursor > 0 else { break }
            cursor -= 1
            line.remove(at: cursor)
        case .delete:
            if cursor < line.count { line.remove(at: cursor) }
        case .controlD:
            if line.isEmpty { return .endOfInput }
            if cursor < line.count { line.remove(at: cursor) }
        case .clearLine:
            line = []
            cursor = 0
        case .left:
            cursor = max(cursor - 1, 0)
        case .right:
            cursor = min(cursor + 1, line.count)
        case .home:
            cursor = 0
        case .end:
            cursor = line.count
        case .up:
            guard !history.isEmpty else { break }
            if let position = historyPosition {
                guard position > 0 else { break }
                show(historyLineAt: position - 1)
            } else {
                draft = line
                show(historyLineAt: history.count - 1)
            }
        case .down:
            guard let position = historyPosition else { break }
            if position + 1 < history.count {
                show(historyLineAt: position + 1)
            } else {
                historyPosition = nil
                line = draft
                cursor = line.count
            }
        }
        return .editing
    }

    private mutating func show(historyLineAt position: Int) {
        historyPosition = position
        line = Array(history[position])
        cursor = line.count
    }

    /// What a terminal needs to show the line after `prompt` with the cursor in place: back to
    /// the line's start, the prompt and the line, erase the rest, then step back to the cursor.
    ///
    /// The line is drawn on one screen row: when it is wider than `width` columns, only a window
    /// of it around the cursor is shown, so the terminal never wraps it (a wrapped line cannot be
    /// redrawn in place). Wide characters (CJK, emoji) count two columns.
    ///
    /// - Parameters:
    ///   - prompt: The prompt before the line.
    ///   - width: The terminal's width in columns.
    /// - Returns: The bytes to write, as text.
    public func rendering(prompt: String, width: Int = 80) -> String {
        let room = max(width - Self.columns(prompt) - 1, 8)
        // The window: from `start`, as many characters as fit, the cursor inside it.
        // Walk back from the cursor, then on from it, so a redraw costs the window, not the line.
        var start = cursor
        var used = 0
        while start > 0, used + Self.columns(of: line[start - 1]) < room {
            used += Self.columns(of: line[start - 1])
            start -= 1
        }
        var end = cursor
        while end < line.count, used + Self.columns(of: line[end]) < room {
            used += Self.columns(of: line[end])
            end += 1
        }
        let back = Self.columns(line[cursor..<end])
        return "\r" + prompt + String(line[start..<end]) + "\u{1B}[K"
            + (back > 0 ? "\u{1B}[\(back)D" : "")
    }

    /// The screen columns `characters` take: two for a wide character, one otherwise.
    static func columns(_ characters: some Sequence<Character>) -> Int {
        characters.reduce(0) { $0 + columns(of: $1) }
    }

    /// The screen columns one character takes.
    static func columns(of character: Character) -> Int {
        isWide(character) ? 2 : 1
    }

    private static func isWide(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first else { return false }
        if scalar.properties.isEmojiPresentation
            || character.unicodeScalars.count > 1
                && character.unicodeScalars.contains(where: { $0.properties.isEmojiPresentation })
        {
            return true
        }
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// The line a script's `text` gives: its keys applied as if typed, then Enter.
    ///
    /// - Parameter text: One line of a script, without its newline.
    /// - Returns: The command the line stands for.
    public mutating func replay(_ text: String) -> String {
        var decoder = KeyDecoder()
        // A carriage return before the newline (a script saved with CRLF) is not a key.
        for key in decoder.keys(text.utf8.filter { $0 != 0x0D }) where key != .enter {
            if key == .controlD && line.isEmpty { continue }
            _ = handle(key)
        }
        guard case .submitted(let line) = handle(.enter) else { return "" }
        return line
    }
}
