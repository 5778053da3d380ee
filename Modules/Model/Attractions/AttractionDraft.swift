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
    ///
    /// Leading and trailing whitespace is not a problem here: ``validated(id:)`` trims it.
    public var problems: [AttractionValidationError] {
        AttractionRules.problems(name: name.trimmedOfWhitespace, notes: notes.trimmedOfWhitespace)
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
