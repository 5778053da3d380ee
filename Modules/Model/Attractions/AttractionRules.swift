/// The rules every attraction keeps, whether it was typed into an editor or read from a file.
public enum AttractionRules {
    /// The longest name allowed, in characters, after trimming.
    public static let maximumNameLength = 100
    /// The longest notes allowed, in characters, after trimming.
    public static let maximumNotesLength = 2_000

    /// Every rule that an attraction's already trimmed fields break, in field order.
    ///
    /// - Complexity: O(*n*) in the length of the fields.
    static func problems(name: String, notes: String) -> [AttractionValidationError] {
        var found: [AttractionValidationError] = []
        if name.isEmpty {
            found.append(.emptyName)
        } else if name.isLonger(than: maximumNameLength) {
            found.append(.nameTooLong(length: name.count, limit: maximumNameLength))
        }
        if let position = name.positionOfFirstControlCharacter {
            found.append(.controlCharacter(field: .name, position: position))
        }
        if notes.isLonger(than: maximumNotesLength) {
            found.append(.notesTooLong(length: notes.count, limit: maximumNotesLength))
        }
        if let position = notes.positionOfFirstControlCharacter {
            found.append(.controlCharacter(field: .notes, position: position))
        }
        return found
    }
}

extension Attraction {
    /// Every rule this attraction breaks, as a value read from elsewhere (a file, an older
    /// version) might; empty for every attraction an editor produced.
    ///
    /// On top of the editor's rules, a stored field must already be trimmed: an editor never
    /// saves surrounding whitespace, so a field that has some was not written by one.
    ///
    /// - Complexity: O(*n*) in the length of the fields; a file of 100,000 rows is checked as it
    ///   loads, so the common case (no problem) avoids every allocation.
    public var problems: [AttractionValidationError] {
        if name.isPlainValidField(
            maximumLength: AttractionRules.maximumNameLength, mayBeEmpty: false),
            notes.isPlainValidField(
                maximumLength: AttractionRules.maximumNotesLength, mayBeEmpty: true)
        {
            return []
        }
        let isNameTrimmed = !name.hasSurroundingWhitespace
        let isNotesTrimmed = !notes.hasSurroundingWhitespace
        var found: [AttractionValidationError] = []
        if !isNameTrimmed { found.append(.untrimmed(field: .name)) }
        if !isNotesTrimmed { found.append(.untrimmed(field: .notes)) }
        return found
            + AttractionRules.problems(
                name: isNameTrimmed ? name : name.trimmedOfWhitespace,
                notes: isNotesTrimmed ? notes : notes.trimmedOfWhitespace)
    }
}

extension String {
    /// Whether the string has more than `limit` characters, without counting them when its bytes
    /// already say no (a character takes at least one byte).
    func isLonger(than limit: Int) -> Bool {
        utf8.count > limit && count > limit
    }

    /// Whether the string keeps every rule of a stored field, checked without allocating: the
    /// common case of loading a file, so a list of 100,000 rows loads at the speed of decoding.
    func isPlainValidField(maximumLength: Int, mayBeEmpty: Bool) -> Bool {
        (mayBeEmpty || !isEmpty) && !isLonger(than: maximumLength) && !hasSurroundingWhitespace
            && positionOfFirstControlCharacter == nil
    }

    /// Whether the string starts or ends with whitespace (or a newline), as `trimmedOfWhitespace`
    /// would trim it.
    var hasSurroundingWhitespace: Bool {
        // ASCII letters, digits and punctuation at both ends (the usual case) are not whitespace,
        // and are each a whole character; only other ends need the character-level test.
        guard let firstByte = utf8.first, let lastByte = utf8.last else { return false }
        let isPlainASCII = { (byte: UInt8) in (0x21...0x7E).contains(byte) }
        if isPlainASCII(firstByte) && isPlainASCII(lastByte) { return false }
        return (first?.isWhitespace ?? false) || (last?.isWhitespace ?? false)
    }

    /// The position (counting characters from 1) of the first control character, if any.
    ///
    /// Control characters are Unicode's category Cc: C0 (including tab, newline and escape),
    /// delete, and C1. None of them has a place in a one-line name or in notes, and a terminal
    /// would obey an escape sequence instead of showing it.
    var positionOfFirstControlCharacter: Int? {
        // The common case first, byte by byte: C0 and delete are single bytes, and C1 (U+0080 to
        // U+009F) is encoded as 0xC2 followed by 0x80...0x9F.
        var previous: UInt8 = 0
        let hasControl = utf8.contains { byte in
            defer { previous = byte }
            return byte < 0x20 || byte == 0x7F || (previous == 0xC2 && (0x80...0x9F).contains(byte))
        }
        guard hasControl else { return nil }
        var position = 0
        for character in self {
            position += 1
            if character.unicodeScalars.contains(where: {
                $0.properties.generalCategory == .control
            }) {
                return position
            }
        }
        return nil
    }
}
