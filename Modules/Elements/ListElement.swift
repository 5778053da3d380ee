/// A value a list store can hold: identified, a plain value, with its editable fields described
/// once.
///
/// The description (``fields``) is what lets generic code handle a field it has never heard of:
/// applying an edit writes only the fields the edit changed, a three-way merge keeps each side's
/// edit field by field, and a file loads a missing field with its default. Add a stored field to
/// a conforming type, add it to ``fields``, and every one of those paths carries it; forget the
/// second step and a test that compares ``fields`` with the type's stored properties names it.
public protocol ListElement: Identifiable, Sendable, Equatable where ID: Sendable {
    /// Why an element breaks the model's rules: ``FieldProblem``, a sentence, unless the type
    /// names its own.
    associatedtype Problem: Error & Sendable & Equatable & CustomStringConvertible = FieldProblem

    /// What one element is called in a sentence: "attraction".
    static var noun: String { get }

    /// What several are called: "attractions" (by default, ``noun`` and an "s").
    static var pluralNoun: String { get }

    /// Every stored field but `id`, each once, in the order a screen or a file lists them.
    static var fields: [ElementField<Self>] { get }

    /// An element with this id and every field at its default: what a file row that names only
    /// some fields starts from.
    init(blankWithID id: ID)

    /// How labels and notices name this element: "Louvre".
    var title: String { get }

    /// Every rule this element breaks, in field order; empty when it keeps them all.
    ///
    /// The store refuses an element with a problem, whether it came from an editor or a file.
    var problems: [Problem] { get }
}

extension ListElement {
    /// ``noun`` and an "s".
    public static var pluralNoun: String { noun + "s" }

    /// `count` elements, in words: "1 attraction", "3 attractions".
    public static func counted(_ count: Int) -> String {
        "\(count) \(count == 1 ? noun : pluralNoun)"
    }

    /// The fields in which `self` and `other` differ, in ``fields`` order.
    public func fieldsChanged(from other: Self) -> [ElementField<Self>] {
        Self.fields.filter { !$0.isEqual(self, other) }
    }

    /// `self`, with every field that an edit changed from `original` to `edited` set as in
    /// `edited`: the fields the edit did not touch keep what `self` has (another process's edit,
    /// merged in while the editor was open, survives).
    public func applying(editFrom original: Self, to edited: Self) -> Self {
        var result = self
        for field in edited.fieldsChanged(from: original) {
            field.copy(from: edited, to: &result)
        }
        return result
    }

    /// Every rule the fields break, field by field, in ``fields`` order.
    @inlinable
    public var fieldProblems: [Problem] {
        var problems: [Problem] = []
        for field in Self.fields { problems += field.problems(in: self) }
        return problems
    }

    /// What a list's row shows after the title: each listed field's part, in ``fields`` order
    /// (see ``ElementField/listed(in:)``).
    public var listedParts: [String] {
        Self.fields.compactMap { $0.isListed ? $0.listed(in: self) : nil }
    }

    /// The field names a stored element has: `id`, then each of ``fields``.
    public static var storedFieldNames: Set<String> {
        Set(["id"] + fields.map(\.name))
    }
}

extension ListElement where Self: Codable, ID: Codable {
    /// Reads an element stored as an object of its fields: `id`, then each described field; a
    /// field the object does not have keeps its default (see ``init(blankWithID:)``).
    ///
    /// Call it from `init(from:)`: `self = try Self.decodeFields(from: decoder)`.
    @inlinable
    public static func decodeFields(from decoder: any Decoder) throws -> Self {
        let container = try decoder.container(keyedBy: FieldKey.self)
        var element = Self(blankWithID: try container.decode(ID.self, forKey: FieldKey("id")))
        for field in fields {
            try field.decode(from: container, into: &element)
        }
        return element
    }

    /// Writes the element as an object of its fields: `id`, then each described field.
    ///
    /// Call it from `encode(to:)`.
    @inlinable
    public func encodeFields(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: FieldKey.self)
        try container.encode(id, forKey: FieldKey("id"))
        for field in Self.fields {
            try field.encode(self, into: &container)
        }
    }
}

/// A rule a field's value breaks, in words: the problem of an element type that declares none
/// of its own, so that a type with no rules, or a few said in words, needs no enum of problems.
public struct FieldProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, in words a user can act on.
    public let description: String

    /// A problem that says `description`.
    public init(_ description: String) {
        self.description = description
    }
}

extension ListElement where Problem == FieldProblem {
    /// Every rule the fields break (``fieldProblems``): an element whose only rules are its
    /// fields' needs to write none.
    public var problems: [FieldProblem] { fieldProblems }
}
