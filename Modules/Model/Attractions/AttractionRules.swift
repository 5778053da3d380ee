import MVCElements

/// The rules every attraction keeps, whether it was typed into an editor or read from a file.
public enum AttractionRules {
    /// The longest name allowed, in characters, after trimming.
    public static let maximumNameLength = 100
    /// The longest notes allowed, in characters, after trimming.
    public static let maximumNotesLength = 2_000

    /// Every rule that a typed name breaks once trimmed (an editor trims before it saves).
    static func typedNameProblems(_ trimmed: String) -> [AttractionValidationError] {
        var found: [AttractionValidationError] = []
        if trimmed.isEmpty {
            found.append(.emptyName)
        } else if trimmed.isLonger(than: maximumNameLength) {
            found.append(.nameTooLong(length: trimmed.count, limit: maximumNameLength))
        }
        if let position = trimmed.positionOfFirstControlCharacter {
            found.append(.controlCharacter(field: .name, position: position))
        }
        return found
    }

    /// Every rule that typed notes break once trimmed.
    static func typedNotesProblems(_ trimmed: String) -> [AttractionValidationError] {
        var found: [AttractionValidationError] = []
        if trimmed.isLonger(than: maximumNotesLength) {
            found.append(.notesTooLong(length: trimmed.count, limit: maximumNotesLength))
        }
        if let position = trimmed.positionOfFirstControlCharacter {
            found.append(.controlCharacter(field: .notes, position: position))
        }
        return found
    }

    /// Every rule a stored name breaks: the editor's rules, and it must already be trimmed (an
    /// editor never saves surrounding whitespace, so a name that has some was not written by one).
    ///
    /// - Complexity: O(*n*) in the length of the name; the common case (no problem) allocates
    ///   nothing, so a file of 100,000 rows loads at the speed of decoding.
    @Sendable
    public static func nameProblems(_ name: String) -> [AttractionValidationError] {
        storedFieldProblems(name, field: .name, mayBeEmpty: false, limit: maximumNameLength) {
            typedNameProblems($0)
        }
    }

    /// Every rule stored notes break: the editor's rules, and they must already be trimmed.
    @Sendable
    public static func notesProblems(_ notes: String) -> [AttractionValidationError] {
        storedFieldProblems(notes, field: .notes, mayBeEmpty: true, limit: maximumNotesLength) {
            typedNotesProblems($0)
        }
    }

    private static func storedFieldProblems(
        _ value: String, field: AttractionValidationError.Field, mayBeEmpty: Bool, limit: Int,
        typed: (String) -> [AttractionValidationError]
    ) -> [AttractionValidationError] {
        if value.isPlainValidField(maximumLength: limit, mayBeEmpty: mayBeEmpty) { return [] }
        guard value.hasSurroundingWhitespace else { return typed(value) }
        return [.untrimmed(field: field)] + typed(value.trimmedOfWhitespace)
    }
}

extension Attraction {
    /// Every rule this attraction breaks, field by field.
    ///
    /// A value read from elsewhere (a file, an older version) may break some; every attraction
    /// an editor produced breaks none. The rules are those ``Attraction/fields`` gives each field.
    public var problems: [AttractionValidationError] { fieldProblems }
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
        guard
            utf8.withContiguousStorageIfAvailable(Self.hasControlByte) ?? Self.hasControlByte(utf8)
        else { return nil }
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

    /// Whether the UTF-8 `bytes` hold a control character.
    ///
    /// That is a byte below 0x20, 0x7F, or 0xC2 then 0x80...0x9F: a plain loop, so that a short
    /// name is checked in a few nanoseconds.
    private static func hasControlByte(_ bytes: some Sequence<UInt8>) -> Bool {
        var previous: UInt8 = 0
        for byte in bytes {
            if byte < 0x20 || byte == 0x7F || (previous == 0xC2 && byte >= 0x80 && byte <= 0x9F) {
                return true
            }
            previous = byte
        }
        return false
    }
}
