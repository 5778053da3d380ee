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
        } else if name.count > maximumNameLength {
            found.append(.nameTooLong(length: name.count, limit: maximumNameLength))
        }
        if let position = name.positionOfFirstControlCharacter {
            found.append(.controlCharacter(field: .name, position: position))
        }
        if notes.count > maximumNotesLength {
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
    public var problems: [AttractionValidationError] {
        let trimmedName = name.trimmedOfWhitespace
        let trimmedNotes = notes.trimmedOfWhitespace
        var found: [AttractionValidationError] = []
        if name != trimmedName { found.append(.untrimmed(field: .name)) }
        if notes != trimmedNotes { found.append(.untrimmed(field: .notes)) }
        return found + AttractionRules.problems(name: trimmedName, notes: trimmedNotes)
    }
}

extension String {
    /// The position (counting characters from 1) of the first control character, if any.
    ///
    /// Control characters are Unicode's category Cc: C0 (including tab, newline and escape),
    /// delete, and C1. None of them has a place in a one-line name or in notes, and a terminal
    /// would obey an escape sequence instead of showing it.
    var positionOfFirstControlCharacter: Int? {
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
