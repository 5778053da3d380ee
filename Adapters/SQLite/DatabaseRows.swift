import MVCElements
import MVCListStore

/// The text of the rows changed after a change, in list order, with each one's place.
struct StoredRows: Sendable {
    /// A list read, and the rows (from 1) that could not be read or break a rule, and why.
    typealias Decoded<Element: RowListElement> = (list: EditableList<Element>, problems: [Problem])
    typealias Problem = (row: Int, reason: String)

    /// Each row's id and field texts, and the rows whose id is not text or rank not an integer,
    /// and why: no write here could find (`WHERE id = ?` never matches a blob) or place them.
    var batch: RowBatch
    /// Each row's place, `rank` then `rowid`.
    var places: [(rank: Int64, rowid: Int64)] = []

    /// The rows changed after `changedAfter`.
    static func read<Element: SQLiteListElement>(
        _ connection: SQLiteConnection, for _: Element.Type, changedAfter: Int64
    ) throws -> StoredRows {
        let fields = Element.fields.count
        var rows = StoredRows(batch: RowBatch(fields: fields))
        // `+rank`: sorted after the search by the change index, not read whole in rank order.
        try connection.rows(
            "\(try selected(connection, for: Element.self)), rank, rowid FROM elements WHERE row_change > ? ORDER BY +rank, rowid",
            [.integer(changedAfter)]
        ) { row in
            rows.batch.append(row, fields: fields)
            // A rank that is not an integer is a mistyped row, never placed.
            let rank = row[fields + 2].flatMap { Int64($0) } ?? 0
            rows.places.append((rank, row[fields + 3].flatMap { Int64($0) } ?? 0))
        }
        return rows
    }

    /// The list the elements table holds, decoded while it is read (`decodedRows`), and the broken
    /// rows; indexed after it is shown if `id` is the primary key, which keeps each id once.
    static func readAll<Element: SQLiteListElement>(
        _ connection: SQLiteConnection, for _: Element.Type
    ) throws -> Decoded<Element> {
        let (fields, selected) = (Element.fields.count, try selected(connection, for: Element.self))
        let key = "SELECT group_concat(name) FROM pragma_table_info('elements') WHERE pk > 0"
        return try Element.decodedRows(distinctIDs: try connection.strings(key) == ["id"]) { hand in
            var batch = RowBatch(fields: fields, rows: RowBatch.capacity)
            // The rowid orders ranks set equal by hand: the rank index holds it; nothing is sorted.
            let sql = "\(selected) FROM elements ORDER BY rank, rowid"
            try connection.rows(sql) { row in
                batch.append(row, fields: fields)
                if batch.isFull {
                    hand(batch)
                    batch = RowBatch(fields: fields, rows: RowBatch.capacity)
                }
            }
            hand(batch)
        }
    }

    /// `SELECT` of the id, each described field's text, and why the row is mistyped (or NULL).
    private static func selected<Element: SQLiteListElement>(
        _ connection: SQLiteConnection, for _: Element.Type
    ) throws -> String {
        let existing = try DatabaseSchema.elementColumns(connection)
        // A described field without a column yet (a database made before it) reads as NULL.
        let columns = Element.fields.map {
            existing.contains($0.name) ? DatabaseSchema.reading($0) : "NULL"
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
    fileprivate mutating func append(_ row: SQLiteRow, fields: Int) {
        if let problem = row[fields + 1] { mistyped[count] = problem }
        for column in 0..<fields + 1 { row.withText(column) { append($0) } }
    }
}
