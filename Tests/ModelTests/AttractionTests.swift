import Foundation
import MVCModel
import Testing

@Suite("Attractions and their validation")
struct AttractionTests {
    @Test("a valid draft becomes an attraction with trimmed fields and the given id")
    func validDraft() throws {
        let id = Attraction.ID()

        let attraction = try AttractionDraft(name: "  Louvre \n", notes: " Mona Lisa ").validated(
            id: id)

        #expect(attraction == Attraction(id: id, name: "Louvre", notes: "Mona Lisa"))
    }

    @Test("a name that is empty or only whitespace is refused", arguments: ["", "   ", "\n\t "])
    func emptyName(name: String) {
        #expect(throws: AttractionValidationError.emptyName) {
            try AttractionDraft(name: name).validated(id: Attraction.ID())
        }
    }

    @Test("names and notes longer than the limits are refused, with their lengths")
    func tooLong() {
        let longName = String(repeating: "n", count: AttractionRules.maximumNameLength + 1)
        let longNotes = String(repeating: "x", count: AttractionRules.maximumNotesLength + 1)

        let problems = AttractionDraft(name: longName, notes: longNotes).problems

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

        #expect(try AttractionDraft(name: name).validated(id: Attraction.ID()).name == name)
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

        let draft = AttractionDraft(attraction)

        #expect(draft.name == "Orsay" && draft.notes == "Impressionists")
        #expect(try draft.validated(id: attraction.id) == attraction)
    }
}

@Suite("Attractions keep text safe to show")
struct AttractionControlCharacterTests {
    @Test(
        "a control character in a name or notes is refused, with its field and position",
        arguments: [
            (
                AttractionDraft(name: "Red\u{1B}[31m"),
                AttractionValidationError.controlCharacter(field: .name, position: 4)
            ),
            (AttractionDraft(name: "Bell\u{7}"), .controlCharacter(field: .name, position: 5)),
            (
                AttractionDraft(name: "Louvre", notes: "a\tb"),
                .controlCharacter(field: .notes, position: 2)
            ),
            (AttractionDraft(name: "C1\u{9B}2J"), .controlCharacter(field: .name, position: 3)),
        ]
    )
    func controlCharacters(draft: AttractionDraft, error: AttractionValidationError) {
        #expect(throws: error) { try draft.validated(id: Attraction.ID()) }
    }

    @Test("an attraction an editor made breaks no rule")
    func editorMadeAttractionIsValid() throws {
        let attraction = try AttractionDraft(name: " Louvre ", notes: " Mona Lisa ").validated(
            id: Attraction.ID())

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
