import MVCElements
import MVCListStore

/// The text of the rows changed after a change, in list order, with each one's place.
struct StoredRows: Sendable {
    /// Each row's id and field texts, and the rows (from 0) whose id is not stored as text or
    /// whose rank is not an integer, and why: no write here could find (`WHERE id = ?` never
    /// matches a blob) or place them.
    var batch: RowBatch
    /// Each row's place, `rank` then `rowid`.
    var places: [(rank: Int64, rowid: Int64)] = []

    /// The rows changed after `changedAfter`.
    static func read<Element: SQLiteListElement>(
        _ connection: SQLiteConnection, for _: Element.Type, changedAfter: Int64
    ) throws -> StoredRows {
        let fields = Element.fields.count
        var rows = StoredRows(batch: RowBatch())
        // `+rank`: sorted after the search by the change index, not read whole in rank order.
        try connection.rows(
            "\(try selected(connection, for: Element.self)), rank, rowid FROM elements WHERE row_change > ? ORDER BY +rank, rowid",
            [.integer(changedAfter)], columns: fields + 4
        ) { row in
            rows.batch.append(row, fields: fields)
            // A rank that is not an integer is a mistyped row, never placed.
            rows.places.append(
                (
                    row[fields + 2].flatMap { Int64($0) } ?? 0,
                    row[fields + 3].flatMap { Int64($0) } ?? 0
                ))
        }
        return rows
    }

    /// Every row's text, in list order, handed to `hand` a batch at a time.
    static func readAll<Element: SQLiteListElement>(
        _ connection: SQLiteConnection, for _: Element.Type,
        handing hand: (consuming RowBatch) -> Void
    ) throws {
        let fields = Element.fields.count
        var batch = RowBatch(fields: fields)
        // The rowid orders ranks set equal by hand: the rank index holds it, so nothing is sorted.
        try connection.rows(
            "\(try selected(connection, for: Element.self)) FROM elements ORDER BY rank, rowid", [],
            columns: fields + 2
        ) { row in
            batch.append(row, fields: fields)
            if batch.isFull {
                hand(batch)
                batch = RowBatch(fields: fields)
            }
        }
        hand(batch)
    }

    /// `SELECT` of the id, each described field's text, and why the row is mistyped (or NULL).
    private static func selected<Element: SQLiteListElement>(
        _ connection: SQLiteConnection, for _: Element.Type
    ) throws -> String {
        let existing = try DatabaseSchema.elementColumns(connection)
        // A described field without a column yet (a database made before it) reads as NULL.
        let columns = Element.fields.map {
            existing.contains($0.name)
                ? DatabaseSchema.reading($0, column: DatabaseSchema.quoted($0.name)) : "NULL"
        }
        let mistyped = """
            CASE WHEN typeof(id) != 'text' THEN 'its id is stored as ' || typeof(id) || ', not as text' \
            WHEN typeof(rank) != 'integer' THEN 'its rank is ' || substr(quote(rank), 1, 40) || ', not an integer' END
            """
        return "SELECT id, \(columns.joined(separator: ", ")), \(mistyped)"
    }
}

extension RowBatch {
    /// Adds a row read as `id, <fields>, <why mistyped>`.
    fileprivate mutating func append(_ row: [String?], fields: Int) {
        if let problem = row[fields + 1] { mistyped[ids.count] = problem }
        ids.append(row[0] ?? "")
        for column in 1..<fields + 1 { texts.append(row[column]) }
    }
}

/// Decodes stored rows into elements, checking each against the model's rules.
enum RowDecoder<Element: SQLiteListElement> {
    /// A list read, and the rows (from 1) that could not be read or break a rule, and why.
    typealias Decoded = (list: EditableList<Element>, problems: [(row: Int, reason: String)])

    /// The list the elements table holds, decoded while it is read, with the broken rows.
    static func readAll(_ connection: SQLiteConnection) throws -> Decoded {
        try Element.decodedRows { hand in
            try StoredRows.readAll(connection, for: Element.self, handing: hand)
        }
    }

    /// Each row's element, or why it cannot be taken in, in order: for the few rows a look reads.
    static func each(_ rows: StoredRows) -> [(element: Element?, problem: String?)] {
        let fields = ContiguousArray(Element.fields)
        let batch = rows.batch
        return batch.ids.indices.map { row in
            if let mistyped = batch.mistyped[row] {
                return (nil, "\(Element.noun) \(batch.ids[row]): \(mistyped)")
            }
            var problem: String?
            let element = Element.decoded(
                key: batch.ids[row], texts: batch.texts, from: row * fields.count, fields: fields,
                problem: &problem)
            return (element, element == nil ? problem ?? "it cannot be read" : nil)
        }
    }
}
