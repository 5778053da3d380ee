import Foundation
import MVCElements
import Testing

/// An importer's element with a date and an optional: values with no lossless text of their own.
private struct Trip: ListElement, Codable {
    var id: UUID
    var name = ""
    var leaves = Date(timeIntervalSince1970: 0)
    var budget: Int?

    static var noun: String { "trip" }
    static let fields: [ElementField<Trip>] = [
        ElementField("name", \.name),
        ElementField(
            "leaves", \.leaves, text: { $0.formatted(.iso8601) },
            parse: { text in
                (try? Date.ISO8601FormatStyle().parse(text)).map { .success($0) }
                    ?? .failure(FieldProblem("the date “\(text)” is not like 2026-12-24T08:00:00Z"))
            }),
        ElementField(
            "budget", \.budget, text: { $0.map(String.init) ?? "" },
            parse: { text in
                if text.isEmpty { return .success(nil) }
                return Int(text).map { .success($0) }
                    ?? .failure(FieldProblem("the budget must be a whole number, or nothing"))
            }, listed: true),
    ]

    var title: String { name }

    init(blankWithID id: UUID) { self.id = id }
    init(from decoder: any Decoder) throws { self = try Self.decodeFields(from: decoder) }
    func encode(to encoder: any Encoder) throws { try encodeFields(to: encoder) }
}

@Suite("A field of any value a file can hold: a date, an optional")
struct AnyValueFieldTests {
    @Test("an editor shows and reads a date and an optional as their descriptions say")
    func editedAsText() throws {
        var draft = ElementDraft(editing: Trip(blankWithID: UUID()))
        #expect(draft.text(ofField: "budget") == "")
        #expect(draft.text(ofField: "leaves") == "1970-01-01T00:00:00Z")
        draft.setText("Lisbon", ofField: "name")
        draft.setText("2026-12-24T08:00:00Z", ofField: "leaves")
        draft.setText("lots", ofField: "budget")
        #expect(draft.problems == [FieldProblem("the budget must be a whole number, or nothing")])
        draft.setText("900", ofField: "budget")

        let trip = try draft.validated().get()
        #expect(trip.budget == 900)
        #expect(trip.leaves == Date(timeIntervalSince1970: 1_798_099_200))
        #expect(trip.listedParts == ["budget 900"])
    }

    @Test("a file keeps a date and an optional, nil included, as their own JSON values")
    func storedAsThemselves() throws {
        var trip = Trip(blankWithID: UUID())
        trip.leaves = Date(timeIntervalSince1970: 1_798_099_200)
        let nothing = try JSONDecoder().decode(Trip.self, from: JSONEncoder().encode(trip))
        #expect(nothing == trip)
        trip.budget = 900
        let some = try JSONDecoder().decode(Trip.self, from: JSONEncoder().encode(trip))
        #expect(some == trip)
    }
}
