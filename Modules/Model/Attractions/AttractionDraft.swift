/// The fields of an attraction as a user is typing them, before they are checked.
///
/// A draft opened on an attraction keeps that attraction: the fields an editor does not show
/// come from it when the draft is validated, so a field the editor was never told about (added
/// to ``Attraction/fields`` later) is kept, not reset to its default.
public struct AttractionDraft: Sendable, Equatable {
    /// The name as typed.
    public var name: String
    /// The notes as typed.
    public var notes: String
    /// The attraction being edited, if any: the fields the draft does not hold come from it.
    public let original: Attraction?

    /// Creates a draft for a new attraction, with the given fields.
    public init(name: String = "", notes: String = "") {
        self.name = name
        self.notes = notes
        self.original = nil
    }

    /// A draft holding an existing attraction's fields, to edit them.
    public init(_ attraction: Attraction) {
        self.name = attraction.name
        self.notes = attraction.notes
        self.original = attraction
    }

    /// Every rule the draft breaks, in field order; empty when it is valid.
    ///
    /// Leading and trailing whitespace is not a problem here: ``validated(id:)`` trims it.
    public var problems: [AttractionValidationError] {
        AttractionRules.typedNameProblems(name.trimmedOfWhitespace)
            + AttractionRules.typedNotesProblems(notes.trimmedOfWhitespace)
    }

    /// The attraction this draft describes, trimmed, if it is valid.
    ///
    /// - Parameter id: The identity of the attraction: a new one, or the one being edited (whose
    ///   other fields are kept).
    /// - Returns: The validated attraction.
    /// - Throws: The first ``AttractionValidationError`` the draft breaks.
    public func validated(id: Attraction.ID) throws(AttractionValidationError) -> Attraction {
        if let problem = problems.first { throw problem }
        var attraction =
            original.flatMap { $0.id == id ? $0 : nil } ?? Attraction(blankWithID: id)
        attraction.name = name.trimmedOfWhitespace
        attraction.notes = notes.trimmedOfWhitespace
        return attraction
    }
}
