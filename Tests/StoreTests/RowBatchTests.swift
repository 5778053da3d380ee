import MVCElements
import MVCListStore
import Testing

/// An importer's element kept as rows: an id that is a number, a text and a number field.
private struct Bookmark: RowListElement, Equatable {
    var id: Int
    var title = ""
    var visits = 0

    static var noun: String { "bookmark" }
    static let fields: [ElementField<Bookmark>] = [
        ElementField("title", \.title, rule: { $0.isEmpty ? [FieldProblem("no title")] : [] }),
        ElementField("visits", \.visits),
    ]

    init(blankWithID id: Int) { self.id = id }
    init(id: Int, title: String, visits: Int = 0) {
        (self.id, self.title, self.visits) = (id, title, visits)
    }
}

/// A batch of rows as an adapter reads them: each cell's bytes, or `NULL`.
private func batch(_ rows: [[[UInt8]?]], mistyped: [Int: String] = [:]) -> RowBatch {
    var batch = RowBatch(fields: Bookmark.fields.count, rows: rows.count)
    for (index, row) in rows.enumerated() {
        if let reason = mistyped[index] { batch.mistyped[batch.count] = reason }
        for cell in row {
            cell.map { bytes in bytes.withUnsafeBufferPointer { batch.append($0) } }
                ?? batch.append(nil as String?)
        }
    }
    return batch
}

@Suite("Rows a database hands over, a batch at a time")
struct RowBatchTests {
    @Test(
        "rows in several batches make the list in order; NULL keeps a field's default, an empty text is a text"
    )
    func rowsInOrder() {
        let decoded = Bookmark.decodedRows(distinctIDs: true) { hand in
            hand(batch([[Array("1".utf8), Array("Swift forums".utf8), Array("3".utf8)]]))
            hand(
                batch([
                    [Array("2".utf8), Array("Docs".utf8), nil],
                    [Array("3".utf8), Array("Blog".utf8), []],
                ]))
        }
        #expect(
            decoded.list.elements == [
                Bookmark(id: 1, title: "Swift forums", visits: 3), Bookmark(id: 2, title: "Docs"),
            ])
        // An empty text is read by the field, which cannot take it as a number: not a NULL.
        #expect(decoded.problems.map(\.row) == [3])
        #expect(decoded.problems.first?.reason.contains("visits") == true)
    }

    @Test(
        "text is read as UTF-8 where it is decoded: a multi-byte title whole; bytes that are not UTF-8 are told, never read altered"
    )
    func textAsUTF8() {
        let decoded = Bookmark.decodedRows(distinctIDs: false) { hand in
            hand(
                batch([
                    [Array("1".utf8), Array("Café “Zürich” 🚲".utf8), nil],
                    [Array("2".utf8), [0x41, 0xFF, 0x42], nil],
                    [Array("3".utf8), Array("Docs".utf8), [0xED, 0xA0, 0x80]],
                ]))
        }
        #expect(decoded.list.elements.map(\.title) == ["Café “Zürich” 🚲"])
        #expect(decoded.problems.map(\.row) == [2, 3])
        #expect(
            decoded.problems.first?.reason.hasPrefix(
                "bookmark 2, field “title”: its text is not UTF-8") == true)
    }

    @Test(
        "an id in two rows of a table that does not keep ids once: the second is told, naming the first"
    )
    func repeatedIDs() {
        let decoded = Bookmark.decodedRows(distinctIDs: false) { hand in
            hand(
                batch([
                    [Array("1".utf8), Array("A".utf8), nil],
                    [Array("x".utf8), Array("B".utf8), nil],
                ]))
            hand(
                batch([
                    [Array("1".utf8), Array("C".utf8), nil],
                    [Array("2".utf8), Array("D".utf8), nil],
                ]))
        }
        #expect(decoded.list.elements.map(\.title) == ["A", "D"])
        #expect(decoded.problems.map(\.row) == [2, 3])
        #expect(decoded.problems.last?.reason == "bookmark 1: its id is row 1's too")
        #expect(
            Bookmark.refusal(decoded.problems)
                == "row 2: its id “x” is not the id of a bookmark, as written here (and row 3)")
    }
    @Test(
        "each row that cannot be taken in is told by its row in the whole list, whatever its batch")
    func problemsByRow() {
        let decoded = Bookmark.decodedRows(distinctIDs: true) { hand in
            hand(
                batch([
                    [Array("1".utf8), Array("A".utf8), nil],
                    [Array("x".utf8), Array("B".utf8), nil],
                ]))
            hand(
                batch(
                    [
                        [Array("3".utf8), [], nil], [Array("4".utf8), Array("D".utf8), nil],
                        [Array("5".utf8), Array("E".utf8), nil],
                    ], mistyped: [1: "its id is stored as blob, not as text"]))
        }
        #expect(decoded.list.elements.map(\.id) == [1, 5])
        #expect(decoded.problems.map(\.row) == [2, 3, 4])
        #expect(
            decoded.problems.map(\.reason) == [
                "its id “x” is not the id of a bookmark, as written here",
                "bookmark 3: no title",
                "bookmark 4: its id is stored as blob, not as text",
            ])
    }

    @Test("a batch is handed over at its row capacity, or sooner once its text reaches 32 MB")
    func fullBatches() {
        var rows = RowBatch(fields: 2)
        for row in 0..<RowBatch.capacity {
            #expect(!rows.isFull, "full after \(row) rows")
            for text in ["\(row)", "title", nil] { rows.append(text) }
        }
        #expect(rows.isFull && rows.count == RowBatch.capacity)

        var long = RowBatch(fields: 2)
        let text = String(repeating: "x", count: 1 << 20)
        for _ in 0..<31 { for cell in ["1", text, nil] { long.append(cell) } }
        #expect(!long.isFull)
        for cell in ["1", text, nil] { long.append(cell) }
        #expect(long.isFull && long.count == 32)
    }
}
