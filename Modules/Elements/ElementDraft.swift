/// An element's fields as a user is typing them, before they are checked: the editor's draft,
/// for any ``ListElement``, built from its ``ListElement/fields``.
///
/// The draft keeps the element it was opened on, so a field no editor shows keeps its value, and a
/// field added to the element's description is editable without touching the draft.
///
/// ```swift
/// var draft = ElementDraft(editing: louvre)
/// draft.setText("  Musée du Louvre ", ofField: "name")
/// let edited = try draft.validated().get()  // name "Musée du Louvre", notes as they were
/// ```
public struct ElementDraft<Element: ListElement>: Sendable, Equatable {
    /// One field as typed, and what is wrong with it.
    public struct Field: Sendable, Equatable {
        /// The field's name, as ``ListElement/fields`` gives it.
        public let name: String
        /// The text as typed.
        public var text: String
        /// Every rule the text breaks, once trimmed; empty when it is valid.
        public var problems: [Element.Problem]
    }

    /// The element the draft was opened on: a new one (blank, with the id it will have) or the
    /// one being edited.
    public let original: Element
    /// Each field as typed, in ``ListElement/fields`` order.
    public private(set) var fields: [Field]

    /// A draft holding `element`'s fields, to edit them.
    public init(editing element: Element) {
        original = element
        fields = Element.fields.map {
            Field(name: $0.name, text: $0.text(in: element), problems: [])
        }
        fields = Self.check(fields, original: element).fields
    }

    /// The text typed into the field called `name`, if there is such a field.
    public func text(ofField name: String) -> String? {
        fields.first { $0.name == name }?.text
    }

    /// Replaces what is typed into the field called `name`.
    ///
    /// - Returns: Whether there is such a field; if not, nothing changed.
    @discardableResult
    public mutating func setText(_ text: String, ofField name: String) -> Bool {
        guard let index = fields.firstIndex(where: { $0.name == name }) else { return false }
        fields[index].text = text
        fields = Self.check(fields, original: original).fields
        return true
    }

    /// Every rule the draft breaks, in field order; empty when it is valid.
    ///
    /// Leading and trailing whitespace is not a problem: ``validated()`` trims it.
    public var problems: [Element.Problem] { fields.flatMap(\.problems) }

    /// The element this draft describes, trimmed, or the first rule it breaks.
    public func validated() -> Result<Element, Element.Problem> {
        let (element, fields) = Self.check(fields, original: original)
        if let problem = fields.lazy.flatMap(\.problems).first { return .failure(problem) }
        return .success(element)
    }

    /// `original` with every field set from its trimmed text, and each field's problems.
    private static func check(_ fields: [Field], original: Element)
        -> (element: Element, fields: [Field])
    {
        var element = original
        var checked = fields
        for (index, description) in Element.fields.enumerated() where index < fields.count {
            let trimmed = fields[index].text.trimmedOfWhitespace
            if let unreadable = description.set(trimmed, in: &element) {
                checked[index].problems = [unreadable]
            } else {
                checked[index].problems = description.problems(in: element)
            }
        }
        return (element, checked)
    }
}
