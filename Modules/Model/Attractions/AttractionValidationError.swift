/// Why a draft, or a stored attraction, is not a valid attraction.
public enum AttractionValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A field of an attraction, as errors name it.
    public enum Field: String, Sendable, Equatable {
        /// The attraction's name.
        case name
        /// The attraction's notes.
        case notes
    }

    /// The name is empty, or only whitespace.
    case emptyName
    /// The name is longer than the limit.
    case nameTooLong(length: Int, limit: Int)
    /// The notes are longer than the limit.
    case notesTooLong(length: Int, limit: Int)
    /// A field holds a control character (an escape, a newline, a tab...) at a position counted
    /// in characters from 1.
    case controlCharacter(field: Field, position: Int)
    /// A stored field starts or ends with whitespace, which an editor always trims.
    case untrimmed(field: Field)

    /// The field the problem is in.
    public var field: Field {
        switch self {
        case .emptyName, .nameTooLong: .name
        case .notesTooLong: .notes
        case .controlCharacter(let field, _), .untrimmed(let field): field
        }
    }

    /// A sentence a user can act on.
    public var description: String {
        switch self {
        case .emptyName:
            "an attraction needs a name"
        case .nameTooLong(let length, let limit):
            "the name is \(length) characters long; the limit is \(limit)"
        case .notesTooLong(let length, let limit):
            "the notes are \(length) characters long; the limit is \(limit)"
        case .controlCharacter(let field, let position):
            "the \(field.rawValue) has a control character at character \(position); control characters are not allowed"
        case .untrimmed(let field):
            "the \(field.rawValue) starts or ends with whitespace"
        }
    }
}
