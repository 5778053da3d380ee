/// The fields of an attraction as a user is typing them, before they are checked.
public struct AttractionDraft: Sendable, Equatable {
    /// The name as typed.
    public var name: String
    /// The notes as typed.
    public var notes: String

    /// Creates a draft with the given fields.
    public init(name: String = "", notes: String = "") {
        self.name = name
        self.notes = notes
    }

    /// A draft holding an existing attraction's fields, to edit them.
    public init(_ attraction: Attraction) {
        self.init(name: attraction.name, notes: attraction.notes)
    }

    /// Every rule the draft breaks, in field order; empty when it is valid.
    public var problems: [AttractionValidationError] {
        var found: [AttractionValidationError] = []
        let trimmedName = name.trimmedOfWhitespace
        if trimmedName.isEmpty {
            found.append(.emptyName)
        } else if trimmedName.count > AttractionRules.maximumNameLength {
            found.append(
                .nameTooLong(length: trimmedName.count, limit: AttractionRules.maximumNameLength))
        }
        let trimmedNotes = notes.trimmedOfWhitespace
        if trimmedNotes.count > AttractionRules.maximumNotesLength {
            found.append(
                .notesTooLong(length: trimmedNotes.count, limit: AttractionRules.maximumNotesLength)
            )
        }
        return found
    }

    /// The attraction this draft describes, trimmed, if it is valid.
    ///
    /// - Parameter id: The identity of the attraction: a new one, or the one being edited.
    /// - Returns: The validated attraction.
    /// - Throws: The first ``AttractionValidationError`` the draft breaks.
    public func validated(id: Attraction.ID) throws(AttractionValidationError) -> Attraction {
        if let problem = problems.first { throw problem }
        return Attraction(
            id: id, name: name.trimmedOfWhitespace, notes: notes.trimmedOfWhitespace)
    }
}

/// The limits on an attraction's fields.
public enum AttractionRules {
    /// The longest name allowed, in characters, after trimming.
    public static let maximumNameLength = 100
    /// The longest notes allowed, in characters, after trimming.
    public static let maximumNotesLength = 2_000
}

/// Why a draft is not a valid attraction.
public enum AttractionValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name is empty, or only whitespace.
    case emptyName
    /// The name is longer than the limit.
    case nameTooLong(length: Int, limit: Int)
    /// The notes are longer than the limit.
    case notesTooLong(length: Int, limit: Int)

    /// A sentence a user can act on.
    public var description: String {
        switch self {
        case .emptyName:
            "an attraction needs a name"
        case .nameTooLong(let length, let limit):
            "the name is \(length) characters long; the limit is \(limit)"
        case .notesTooLong(let length, let limit):
            "the notes are \(length) characters long; the limit is \(limit)"
        }
    }
}
