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
    func draftFromAttraction() {
        let attraction = Attraction(name: "Orsay", notes: "Impressionists")

        #expect(
            AttractionDraft(attraction) == AttractionDraft(name: "Orsay", notes: "Impressionists"))
    }
}
