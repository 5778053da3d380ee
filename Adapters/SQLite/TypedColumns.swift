import MVCElements

/// Each field's column declared by its kind (`DatabaseSchema.columnType`): SQLite cannot change a
/// column's type in place, so a table made before (every column `TEXT`) is rebuilt once, inside
/// the migration's write transaction.
enum TypedColumns {
    /// The described fields whose column is declared with another type than their kind asks.
    static func mistyped<Element: SQLiteListElement>(
        _ connection: SQLiteConnection, for _: Element.Type
    ) throws -> [String] {
        var declared: [String: String] = [:]
        try connection.rows("SELECT name, type FROM pragma_table_info('elements')") { row in
            declared[row[0] ?? ""] = (row[1] ?? "").uppercased()
        }
        return Element.fields.filter { field in
            declared[field.name].map { $0 != DatabaseSchema.columnType(field) } ?? false
        }.map(\.name)
    }

    /// Rebuilds the elements table with each described field's column typed, if one is not.
    ///
    /// Every row is kept with its id, rank, change and order, every other column as it was, and the
    /// indexes and triggers made again. A value SQLite's column affinity cannot turn into the
    /// type (text in a number's column) stays as it is, and is told as a broken row when read.
    static func retype<Element: SQLiteListElement>(
        _ connection: SQLiteConnection, for _: Element.Type
    ) throws {
        guard try !mistyped(connection, for: Element.self).isEmpty,
            try isOnlyThisProgramsTable(connection, for: Element.self)
        else { return }
        typealias Column = (name: String, type: String, notNull: Bool, defaultValue: String?)
        var columns: [Column] = []
        try connection.rows(
            "SELECT name, type, \"notnull\", dflt_value FROM pragma_table_info('elements') ORDER BY cid"
        ) { row in columns.append((row[0] ?? "", row[1] ?? "", row[2] == "1", row[3])) }
        let fields = Dictionary(
            Element.fields.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let fixed = [
            "id": "id TEXT PRIMARY KEY NOT NULL", "rank": "rank INTEGER NOT NULL",
            "row_change": "row_change INTEGER NOT NULL DEFAULT 0",
        ]
        let declarations = columns.map { column in
            fixed[column.name]
                ?? DatabaseSchema.quoted(column.name) + " "
                + (fields[column.name].map(DatabaseSchema.columnType) ?? column.type)
                + (column.notNull ? " NOT NULL" : "")
                // In parentheses: `table_info` gives an expression's default without them.
                + (column.defaultValue.map { " DEFAULT (\($0))" } ?? "")
        }
        let names = columns.map { DatabaseSchema.quoted($0.name) }
        // A number's text becomes the number by the column's affinity; a truth value is spelt.
        let copied = zip(columns, names).map { column, name in
            fields[column.name]?.valueKind == .boolean
                ? "CASE \(name) WHEN 'true' THEN 1 WHEN 'false' THEN 0 ELSE \(name) END" : name
        }
        try connection.execute(
            """
            CREATE TABLE elements_retyped (\(declarations.joined(separator: ", ")));
            INSERT INTO elements_retyped (\(names.joined(separator: ", ")))
                SELECT \(copied.joined(separator: ", ")) FROM elements ORDER BY rowid;
            DROP TABLE elements;
            ALTER TABLE elements_retyped RENAME TO elements;
            \(DatabaseSchema.elementTracking)
            """)
    }

    /// Whether the elements table's columns, constraints and indexes are this program's, the only
    /// table rebuilt (a rebuild cannot carry what `table_info` does not show: another program's
    /// `CHECK`, `UNIQUE`, `COLLATE` or generated column); any other keeps its declared types.
    private static func isOnlyThisProgramsTable<Element: SQLiteListElement>(
        _ connection: SQLiteConnection, for _: Element.Type
    ) throws -> Bool {
        let known = Set(["id", "rank", "row_change"] + Element.fields.map(\.name))
        let columns = try connection.strings("SELECT name FROM pragma_table_xinfo('elements')")
        let sql =
            try connection.strings(
                "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'elements'"
            ).first?.uppercased() ?? ""
        let indexes = try connection.strings(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'elements' AND sql IS NOT NULL"
        )
        return columns.allSatisfy(known.contains)
            && !["CHECK", "UNIQUE", "COLLATE", "GENERATED", "REFERENCES", " AS "].contains {
                sql.contains($0)
            }
            && indexes.allSatisfy { ["elements_by_rank", "elements_by_change"].contains($0) }
    }
}
