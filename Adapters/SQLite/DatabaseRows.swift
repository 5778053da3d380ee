import MVCElements
import MVCListStore

/// The text of every row, in list order: read in one go, so decoding can use every core.
struct StoredRows: Sendable {
    /// Each row's id.
    var ids: [String] = []
    /// Each row's field texts, `Element.fields.count` per row; `nil` keeps the field's default.
    var texts: [String?] = []
    /// The rows (from 0) whose id is not stored as text or whose rank is not an integer, and why:
    /// no write here could find (`WHERE id = ?` never matches a blob) or place them.
    var mistyped: [Int: String] = [:]
    /// Each row's place, `rank` then `rowid` (read only for the rows changed after a change).
    var places: [(rank: Int64, rowid: Int64)] = []

    /// Every row's text, in list order; or, given `changedAfter`, only the rows changed since.
    static func read<Element: SQLiteListElement>(
        _ connection: SQLiteConnection, for _: Element.Type, changedAfter: Int64? = nil
    ) throws -> StoredRows {
        let fields = Element.fields
        let existing = try DatabaseSchema.elementColumns(connection)
        // A described field without a column yet (a database made before it) reads as NULL.
        let columns = fields.map {
            existing.contains($0.name)
                ? DatabaseSchema.reading($0, column: DatabaseSchema.quoted($0.name)) : "NULL"
        }
        var rows = StoredRows()
        let mistyped = """
            CASE WHEN typeof(id) != 'text' THEN 'its id is stored as ' || typeof(id) || ', not as text' \
            WHEN typeof(rank) != 'integer' THEN 'its rank is ' || substr(quote(rank), 1, 40) || ', not an integer' END
            """
        let selected = "SELECT id, \(columns.joined(separator: ", ")), \(mistyped)"
        // The rowid orders ranks set equal by hand: the rank index holds it, so nothing is sorted.
        guard let changedAfter else {
            // Room for every row at once: growing the arrays row by row holds them twice at times.
            let count = Int(try connection.integer("SELECT count(*) FROM elements") ?? 0)
            rows.ids.reserveCapacity(count)
            rows.texts.reserveCapacity(count * fields.count)
            try connection.rows(
                "\(selected) FROM elements ORDER BY rank, rowid", [], columns: fields.count + 2
            ) { row in rows.append(row, fields: fields.count) }
            return rows
        }
        // `+rank`: sorted after the search by the change index, not read whole in rank order.
        try connection.rows(
            "\(selected), rank, rowid FROM elements WHERE row_change > ? ORDER BY +rank, rowid",
            [.integer(changedAfter)], columns: fields.count + 4
        ) { row in
            rows.append(row, fields: fields.count)
            // A rank that is not an integer is a mistyped row, never placed.
            rows.places.append(
                (
                    row[fields.count + 2].flatMap { Int64($0) } ?? 0,
                    row[fields.count + 3].flatMap { Int64($0) } ?? 0
                ))
        }
        return rows
    }

    private mutating func append(_ row: [String?], fields: Int) {
        if let problem = row[fields + 1] { mistyped[ids.count] = problem }
        ids.append(row[0] ?? "")
        for column in 1..<fields + 1 { texts.append(row[column]) }
    }
}

/// Decodes stored rows into elements, checking each against the model's rules.
enum RowDecoder<Element: SQLiteListElement> {
    /// A row (from 1) that could not be read or breaks a rule, and why.
    typealias Problem = (row: Int, reason: String)

    /// The list the rows hold, decoded on every core, and the rows that could not be read or
    /// break a rule (``/MVCListStore/RowListElement/decodedRows(ids:texts:mistyped:)``).
    static func decode(_ rows: consuming StoredRows) -> (
        list: EditableList<Element>, problems: [Problem]
    ) {
        // Handed over, not copied: the rows' texts are freed before the list is indexed.
        let (ids, texts) = (rows.ids, rows.texts)
        (rows.ids, rows.texts) = ([], [])
        return Element.decodedRows(ids: consume ids, texts: consume texts, mistyped: rows.mistyped)
    }

    /// Each row's element, or why it cannot be taken in, in order: for the few rows a look reads.
    static func each(_ rows: StoredRows) -> [(element: Element?, problem: String?)] {
        let fields = ContiguousArray(Element.fields)
        return rows.ids.indices.map { row in
            if let mistyped = rows.mistyped[row] {
                return (nil, "\(Element.noun) \(rows.ids[row]): \(mistyped)")
            }
            var problem: String?
            let element = Element.decoded(
                key: rows.ids[row], texts: rows.texts, from: row * fields.count, fields: fields,
                problem: &problem)
            return (element, element == nil ? problem ?? "it cannot be read" : nil)
        }
    }
}
