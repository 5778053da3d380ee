import Foundation
import MVCModel
import Testing

@Suite("An attraction's id as text")
struct AttractionIDTests {
    @Test(
        "an id's text is Foundation's upper-case UUID string, and only that text reads back as the id"
    )
    func idText() {
        for _ in 0..<1_000 {
            let uuid = UUID()
            let id = Attraction.ID(rawValue: uuid)
            #expect(id.description == uuid.uuidString)
            #expect(Attraction.ID(uuid.uuidString) == id)
            // Only the id's own text reads: a database row keyed in lower case is refused,
            // since edits find rows by the upper-case text (and opening compares no text).
            #expect(Attraction.ID(uuid.uuidString.lowercased()) == nil)
        }
    }

    @Test(
        "text that is not a UUID's is no id",
        arguments: [
            "", "4F0B5C4E-0F1A-4C55-9C3D-2B6F4A8E9D1", "4F0B5C4E-0F1A-4C55-9C3D-2B6F4A8E9D100",
            "4F0B5C4E0F1A-4C55-9C3D-2B6F4A8E9D10-", "4F0B5C4E-0F1A-4C55-9C3D-2B6F4A8E9D1G",
            "{F0B5C4E-0F1A-4C55-9C3D-2B6F4A8E9D10", "4F0B5C4E-0F1A-4C55-9C3D-2B6F4A8É9D1",
            // Each character just beside the digits and the letters, which a parse by ranges
            // could let in.
            "4F0B5C4E-0F1A-4C55-9C3D-2B6F4A8E9D1/", "4F0B5C4E-0F1A-4C55-9C3D-2B6F4A8E9D1:",
            "4F0B5C4E-0F1A-4C55-9C3D-2B6F4A8E9D1@", "4F0B5C4E-0F1A-4C55-9C3D-2B6F4A8E9D1`",
            ":F0B5C4E-0F1A-4C55-9C3D-2B6F4A8E9D10", "4F0B5C4E-0F1A-4C55-9C3D-2B6F4A8E9D1\u{7F}",
        ])
    func notAnID(text: String) {
        #expect(Attraction.ID(text) == nil)
    }
}
