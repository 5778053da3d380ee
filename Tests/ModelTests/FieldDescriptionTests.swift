import MVCElements
import MVCModel
import Testing

/// Checks that `Attraction.fields` lists every stored field.
///
/// It is the one place that lists an attraction's editable fields; editing, undo, merging and the
/// file format go over it. A stored property missing from it would be lost on an edit, so this
/// test compares the two and names what is missing.
@Suite("An attraction's fields are described once")
struct FieldDescriptionTests {
    @Test("every stored property of an attraction but its id is described, once, by name")
    func everyStoredFieldIsDescribed() {
        let stored = Mirror(reflecting: Attraction(name: "Louvre")).children.compactMap(\.label)
        let described = Attraction.fields.map(\.name)

        for name in stored where name != "id" && !described.contains(name) {
            Issue.record(
                "Attraction's stored field “\(name)” is not described in Attraction.fields: an edit, an undo, a merge or a save would lose it"
            )
        }
        for name in described where !stored.contains(name) {
            Issue.record("Attraction.fields describes “\(name)”, which Attraction does not store")
        }
        #expect(Set(described).count == described.count, "a field is described twice")
    }

    @Test("each described field reads and writes the property it is named after")
    func fieldsAreWiredToTheirProperties() {
        let blank = Attraction(blankWithID: Attraction.ID())
        let full = Attraction(id: blank.id, name: "Louvre", notes: "Mona Lisa")
        let fullByName = Dictionary(
            uniqueKeysWithValues: Mirror(reflecting: full).children.compactMap { child in
                child.label.map { ($0, String(describing: child.value)) }
            })

        for field in Attraction.fields {
            var copy = blank
            field.copy(from: full, to: &copy)
            #expect(field.isEqual(copy, full), "copying “\(field.name)” did not copy it")
            #expect(
                field.text(in: full) == fullByName[field.name],
                "the field described as “\(field.name)” reads another property")
        }
    }
}

/// An element of every kind of value a field can hold, for the kinds a store types by.
private struct Gauge: ListElement {
    struct Problem: Error, Equatable, CustomStringConvertible { var description = "" }
    var id = 0
    var count = 0
    var small: Int32 = 0
    var unsigned: UInt32 = 0
    var huge: UInt64 = 0
    var level = 0.0
    var ratio: Float = 0
    var isOn = false
    var label = ""
    static var noun: String { "gauge" }
    static let fields: [ElementField<Gauge>] = [
        ElementField(
            "count", \.count, parse: { Int($0).map { .success($0) } ?? .failure(Problem()) }),
        ElementField(
            "small", \.small, parse: { Int32($0).map { .success($0) } ?? .failure(Problem()) }),
        ElementField(
            "unsigned", \.unsigned,
            parse: { UInt32($0).map { .success($0) } ?? .failure(Problem()) }),
        ElementField(
            "huge", \.huge, parse: { UInt64($0).map { .success($0) } ?? .failure(Problem()) }),
        ElementField(
            "level", \.level, parse: { Double($0).map { .success($0) } ?? .failure(Problem()) }),
        ElementField(
            "ratio", \.ratio, parse: { Float($0).map { .success($0) } ?? .failure(Problem()) }),
        ElementField(
            "isOn", \.isOn, parse: { Bool($0).map { .success($0) } ?? .failure(Problem()) }),
        ElementField("label", \.label),
    ]
    init(blankWithID id: Int) { self.id = id }
    var title: String { label }
    var problems: [Problem] { [] }
}

@Suite("A field's kind of value")
struct FieldKindTests {
    @Test(
        "whole numbers that fit in 64 signed bits are integers; a wider one is text, never rounded")
    func kinds() {
        #expect(
            Gauge.fields.map(\.valueKind) == [
                .integer, .integer, .integer, .text, .real, .real, .boolean, .text,
            ])
    }
}

/// An importer's element whose only rules are said in words: no problem enum, no `problems`.
private struct Bookmark: ListElement {
    var id: Int
    var title = ""
    var visits = 0
    var score = 0.0

    static var noun: String { "bookmark" }
    static let fields: [ElementField<Bookmark>] = [
        ElementField("title", \.title, rule: { $0.isEmpty ? [FieldProblem("no title")] : [] }),
        ElementField("visits", \.visits, listed: true),
        ElementField("score", \.score),
    ]

    init(blankWithID id: Int) { self.id = id }
}

@Suite("An element type that names no problem type of its own")
struct DefaultProblemTests {
    @Test("a field's rule in words is the element's problem, with no problems written")
    func rulesInWords() {
        #expect(Bookmark(blankWithID: 1).problems == [FieldProblem("no title")])
        var titled = Bookmark(blankWithID: 1)
        titled.title = "Swift forums"
        #expect(titled.problems.isEmpty)
    }

    @Test("text a number field cannot read names the field, and a number is read")
    func numbersReadFromText() throws {
        var draft = ElementDraft(editing: Bookmark(blankWithID: 1))
        draft.setText("Swift forums", ofField: "title")
        draft.setText("many", ofField: "visits")
        #expect(draft.problems == [FieldProblem("the visits cannot be “many”")])
        draft.setText("12", ofField: "visits")
        #expect(try draft.validated().get().visits == 12)
        for text in ["nan", "inf", "-infinity"] {
            draft.setText(text, ofField: "score")
            #expect(
                draft.problems == [FieldProblem("the score must be a finite number, not “\(text)”")]
            )
        }
    }

    @Test(
        "a listed field is on the row after the title once it is not its default, a number after its name"
    )
    func listedParts() {
        var bookmark = Bookmark(blankWithID: 1)
        bookmark.title = "Swift forums"
        #expect(bookmark.listedParts.isEmpty)
        bookmark.visits = 3
        #expect(bookmark.listedParts == ["visits 3"])
        #expect(Attraction(name: "Louvre", notes: "Mona Lisa").listedParts == ["Mona Lisa"])
    }
}

/// An element whose fields are reached through a nested value and a computed property: a field
/// reads and writes a stored property where it lies, and any other key path by applying it.
private struct Poster: ListElement {
    struct Size: Equatable, Sendable { var width = 0 }
    var id: Int
    var size = Size()
    var stored = ""
    var caption: String {
        get { stored }
        set { stored = newValue.uppercased() }
    }
    var rating = 0 { didSet { ratingsSet += 1 } }
    var ratingsSet = 0

    static var noun: String { "poster" }
    static let fields: [ElementField<Poster>] = [
        ElementField("width", \.size.width, rule: { $0 < 0 ? [FieldProblem("negative")] : [] }),
        ElementField(
            "caption", \.caption, rule: { $0.isEmpty ? [FieldProblem("no caption")] : [] }),
        ElementField("rating", \.rating),
    ]

    init(blankWithID id: Int) { self.id = id }
    var title: String { stored }
}

@Suite("A field reached through a nested value or a computed property")
struct FieldPathTests {
    @Test(
        "a nested stored property, a computed one and one with didSet are each read, written, checked and copied"
    )
    func nestedAndComputed() {
        let (width, caption) = (Poster.fields[0], Poster.fields[1])
        var poster = Poster(blankWithID: 1)
        #expect(width.set("-3", in: &poster) == nil)
        #expect(caption.set("dune", in: &poster) == nil)

        #expect(poster.size.width == -3)
        #expect(poster.stored == "DUNE", "the computed property's setter was not run")
        #expect(width.text(in: poster) == "-3")
        #expect(caption.text(in: poster) == "DUNE")
        #expect(poster.problems == [FieldProblem("negative")])
        var copy = Poster(blankWithID: 1)
        width.copy(from: poster, to: &copy)
        #expect(width.isEqual(copy, poster) && !caption.isEqual(copy, poster))
        #expect(width.set("many", in: &poster) != nil)
        #expect(poster.size.width == -3, "text that is not a number changed the field")
        #expect(Poster.fields[2].set("4", in: &poster) == nil)
        #expect(poster.rating == 4 && poster.ratingsSet == 1, "the property's didSet was not run")
    }
}
