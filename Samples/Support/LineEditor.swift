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
            line.insert(character, at: cursor)
            cursor += 1
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
    /// - Parameter prompt: The prompt before the line.
    /// - Returns: The bytes to write, as text.
    public func rendering(prompt: String) -> String {
        let back = line.count - cursor
        return "\r" + prompt + String(line) + "\u{1B}[K" + (back > 0 ? "\u{1B}[\(back)D" : "")
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
