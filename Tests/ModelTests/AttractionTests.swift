import Foundation
import MVCElements
import MVCModel
import Testing

/// A draft of a new attraction with `id`, with the name and notes as typed.
func typed(name: String, notes: String = "", id: Attraction.ID = Attraction.ID())
    -> ElementDraft<Attraction>
{
    var draft = ElementDraft(editing: Attraction(blankWithID: id))
    draft.setText(name, ofField: "name")
    draft.setText(notes, ofField: "notes")
    return draft
}

@Suite("Attractions and their validation")
struct AttractionTests {
    @Test("a valid draft becomes an attraction with trimmed fields and the given id")
    func validDraft() throws {
        let id = Attraction.ID()

        let attraction = try typed(name: "  Louvre \n", notes: " Mona Lisa ", id: id).validated()
            .get()

        #expect(attraction == Attraction(id: id, name: "Louvre", notes: "Mona Lisa"))
    }

    @Test("a name that is empty or only whitespace is refused", arguments: ["", "   ", "\n\t "])
    func emptyName(name: String) {
        #expect(throws: AttractionValidationError.emptyName) {
            try typed(name: name, id: Attraction.ID()).validated().get()
        }
    }

    @Test("names and notes longer than the limits are refused, with their lengths")
    func tooLong() {
        let longName = String(repeating: "n", count: AttractionRules.maximumNameLength + 1)
        let longNotes = String(repeating: "x", count: AttractionRules.maximumNotesLength + 1)

        let problems = typed(name: longName, notes: longNotes).problems

        #expect(
            problems == [
                .nameTooLong(
                    length: AttractionRules.maximumNameLength + 1,
                    limit: AttractionRules.maximumNameLength),
                .notesTooLong(
                    length: AttractionRules.maximumNotesLength + 1,
                    limit: AttractionRules.maximumNotesLength),
            ]
        )
    }

    @Test("a name exactly at the limit is accepted")
    func nameAtLimit() throws {
        let name = String(repeating: "n", count: AttractionRules.maximumNameLength)

        #expect(try typed(name: name, id: Attraction.ID()).validated().get().name == name)
    }

    @Test("validation errors read as sentences a user can act on")
    func errorDescriptions() {
        #expect(AttractionValidationError.emptyName.description == "an attraction needs a name")
        #expect(
            AttractionValidationError.nameTooLong(length: 120, limit: 100).description
                == "the name is 120 characters long; the limit is 100"
        )
    }

    @Test("an attraction encodes its id as a bare UUID string and decodes to an equal value")
    func codableRoundTrip() throws {
        let attraction = Attraction(name: "Orsay", notes: "Impressionists")

        let data = try JSONEncoder().encode(attraction)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]

        #expect(object?["id"] as? String == attraction.id.rawValue.uuidString)
        #expect(try JSONDecoder().decode(Attraction.self, from: data) == attraction)
    }

    @Test("a draft made from an attraction holds its fields")
    func draftFromAttraction() throws {
        let attraction = Attraction(name: "Orsay", notes: "Impressionists")

        let draft = ElementDraft(editing: attraction)

        #expect(draft.text(ofField: "name") == "Orsay")
        #expect(draft.text(ofField: "notes") == "Impressionists")
        #expect(try draft.validated().get() == attraction)
    }
}

@Suite("Attractions keep text safe to show")
struct AttractionControlCharacterTests {
    @Test(
        "a control character in a name or notes is refused, with its field and position",
        arguments: [
            (
                typed(name: "Red\u{1B}[31m"),
                AttractionValidationError.controlCharacter(field: .name, position: 4)
            ),
            (typed(name: "Bell\u{7}"), .controlCharacter(field: .name, position: 5)),
            (
                typed(name: "Louvre", notes: "a\tb"),
                .controlCharacter(field: .notes, position: 2)
            ),
            (typed(name: "C1\u{9B}2J"), .controlCharacter(field: .name, position: 3)),
        ]
    )
    func controlCharacters(draft: ElementDraft<Attraction>, error: AttractionValidationError) {
        #expect(throws: error) { try draft.validated().get() }
    }

    @Test("an attraction an editor made breaks no rule")
    func editorMadeAttractionIsValid() throws {
        let attraction = try typed(name: " Louvre ", notes: " Mona Lisa ", id: Attraction.ID())
            .validated().get()

        #expect(attraction.problems.isEmpty)
    }

    @Test("a stored attraction with untrimmed, empty or escaping fields lists every problem")
    func storedAttractionProblems() {
        let attraction = Attraction(name: " ", notes: "\u{1B}]0;title\u{7}")

        #expect(
            attraction.problems == [
                .untrimmed(field: .name), .emptyName, .controlCharacter(field: .notes, position: 1),
            ])
    }
}
