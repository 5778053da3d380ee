import Foundation
import MVCElements
import MVCListStore

/// Writing: one edit a transaction, and whole new lists.
extension ListTable {
    /// Writes one edit in a transaction of its own, acknowledged only once it committed.
    ///
    /// The edit is merged with the stored row by the rule every adapter asks
    /// (``/MVCListStore/ElementMerge``). Returns what to tell of another client's edits it met, and
    /// whether the row now differs from the edit's (then the store takes the row in at the next
    /// look).
    func write(_ write: RowWrite<Element>) throws(PersistenceError) -> (
        notices: [String], differs: Bool
    ) {
        if let refusal = Self.unstorable(write.ours) {
            // Not written, and told; the store takes the stored list back at the next look.
            readWholeListNext()
            return ([refusal], true)
        }
        let (seen, seenEpoch) = (seenChange, seenEpoch)
        let (outcome, before, after, epoch) = try withConnection { connection in
            do {
                return try written(write, connection)
            } catch {
                if !connection.isLost { _ = try? connection.run("ROLLBACK") }
                throw error
            }
        }
        // No other client committed since the store last caught up, and the row is as this
        // client has it: the store has this change too. Otherwise the next look reads it.
        if before == seen, epoch == seenEpoch, outcome.element == write.ours {
            tookIn(TableMark(through: after, epoch: epoch))
        }
        return (outcome.notices, outcome.element != write.ours)
    }

    /// Why `element` cannot be stored as it is, if it cannot: PostgreSQL's text holds no NUL
    /// character (U+0000), and libpq would end a value at one, storing less than was saved.
    static func unstorable(_ element: Element?) -> String? {
        guard let element,
            let field = Element.fields.first(where: { $0.text(in: element).contains("\u{0}") })
        else { return nil }
        return
            "“\(element.title)” was not saved: its \(field.name) holds the NUL character (U+0000), which PostgreSQL's text cannot hold"
    }

    /// The write's transaction, in two round trips where the edit needs no new rank.
    ///
    /// The counter's lock and the stored row, then the statements and the commit (libpq's
    /// pipeline); an edit of fields whose stored row is still as this client last had it, one.
    private func written(_ write: RowWrite<Element>, _ connection: PostgresConnection) throws
        -> (ElementMerge<Element>.Outcome, Int64, Int64, String)
    {
        if case .replaced(let old, let new, _) = write.change,
            let written = try replacedInOneTrip(old, with: new, connection)
        {
            return written
        }
        let key = write.key
        // Locks the list's counter until the commit: the list's writers commit one after
        // another, each change numbered in the order it becomes visible. Every writer, this
        // package or another program, takes it (the trigger does) before it changes a row, so
        // the row read after it is the row as committed.
        let opening = try connection.pipelined([
            ("BEGIN", []),
            (
                "SELECT last_change, epoch, version FROM mvclayers_lists WHERE list = $1 FOR UPDATE",
                [location.table]
            ),
            ("SELECT \(TableSchema.selected(Element.self)) FROM \(table) WHERE id = $1", [key]),
        ])
        guard let counter = opening[1].first, let before = counter[0]?.int64,
            let epoch = counter[1]
        else {
            throw PersistenceError.corrupt(
                path: location.description, reason: "its row in mvclayers_lists is gone")
        }
        if let version = counter[2].flatMap({ Int($0) }), version > TableSchema.version {
            throw PersistenceError.newerVersion(
                path: location.description, found: version, supported: TableSchema.version)
        }
        let (outcome, statements) = try merged(write, stored: opening[2].first, connection)
        let closing = try connection.pipelined(
            statements + [
                ("SELECT last_change FROM mvclayers_lists WHERE list = $1", [location.table]),
                ("COMMIT", []),
            ])
        let after = closing[closing.count - 2].first?.first??.int64 ?? before
        return (outcome, before, after, epoch)
    }

    /// Replaces `old` with `new` in one round trip if the stored row still holds `old`'s fields:
    /// the merge with a row no one else changed is `new` (``/MVCListStore/ElementMerge``), so the
    /// update is made only where that holds, under the counter's lock as every write takes it;
    /// `nil` (nothing written) when another client changed or deleted the row, or the list is
    /// of a newer layout: the merge's two round trips then decide.
    private func replacedInOneTrip(
        _ old: Element, with new: Element, _ connection: PostgresConnection
    ) throws -> (ElementMerge<Element>.Outcome, Int64, Int64, String)? {
        let fields = Element.fields
        let sets = fields.enumerated().map { "\(PostgresLocation.quoted($1.name)) = $\($0 + 3)" }
        let unchanged = fields.enumerated().map {
            "\(PostgresLocation.quoted($1.name)) IS NOT DISTINCT FROM $\($0 + 3 + fields.count)"
        }
        let results = try connection.pipelined([
            ("BEGIN", []),
            (
                "SELECT last_change, epoch FROM mvclayers_lists WHERE list = $1 FOR UPDATE",
                [location.table]
            ),
            (
                """
                UPDATE \(table) SET \(sets.joined(separator: ", ")) WHERE id = $1
                    AND \(unchanged.joined(separator: " AND "))
                    AND (SELECT version FROM mvclayers_lists WHERE list = $2) <= \(TableSchema.version)
                RETURNING row_change
                """,
                [Element.storedText(of: new.id), location.table]
                    + fields.map { $0.text(in: new) } + fields.map { $0.text(in: old) }
            ),
            ("COMMIT", []),
        ])
        guard let counter = results[1].first, let before = counter[0]?.int64,
            let epoch = counter[1]
        else {
            throw PersistenceError.corrupt(
                path: location.description, reason: "its row in mvclayers_lists is gone")
        }
        guard let after = results[2].first?.first??.int64 else { return nil }
        return (ElementMerge.resolve(base: old, ours: new, theirs: old), before, after, epoch)
    }

    /// The statements that write the edit merged with the stored row, as ``/MVCListStore/RowWrite``'s
    /// plan says (the same the SQLite adapter asks).
    private func merged(
        _ write: RowWrite<Element>, stored: [String?]?, _ connection: PostgresConnection
    ) throws -> (ElementMerge<Element>.Outcome, [(sql: String, parameters: [String?])]) {
        let key = write.key
        let row = stored.map { decode($0[...], fields: ContiguousArray(Element.fields)).element }
        let (outcome, steps) = write.plan(stored: row)
        let place = {
            try write.rank(
                in: TableRanks(table: self.table, connection: connection),
                place: self.location.description)
        }
        return (
            outcome,
            try steps.map { step -> (sql: String, parameters: [String?]) in
                switch step {
                case .delete: return ("DELETE FROM \(table) WHERE id = $1", [key])
                case .insert(let element): return inserting(element, rank: try place())
                case .update(let element):
                    let sets = Element.fields.enumerated().map {
                        "\(PostgresLocation.quoted($1.name)) = $\($0 + 2)"
                    }
                    return (
                        "UPDATE \(table) SET \(sets.joined(separator: ", ")) WHERE id = $1",
                        [key] + Element.fields.map { $0.text(in: element) }
                    )
                case .rank:
                    return (
                        "UPDATE \(table) SET rank = $2 WHERE id = $1", [key, String(try place())]
                    )
                }
            }
        )
    }

    /// The statement that inserts `element` at `rank`.
    private func inserting(_ element: Element, rank: Int64) -> (
        sql: String, parameters: [String?]
    ) {
        let columns = ["id", "rank"] + Element.fields.map { PostgresLocation.quoted($0.name) }
        let values = (1...columns.count).map { "$\($0)" }
        return (
            "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(values.joined(separator: ", ")))",
            [Element.storedText(of: element.id), String(rank)]
                + Element.fields.map { $0.text(in: element) }
        )
    }

    /// Inserts `elements` in list order, ranks `gap` apart, 500 rows a statement.
    private func insertAll(_ elements: [Element], _ connection: PostgresConnection) throws {
        let columns = ["id", "rank"] + Element.fields.map { PostgresLocation.quoted($0.name) }
        var start = 0
        while start < elements.count {
            let batch = elements[start..<min(start + 500, elements.count)]
            var values: [String?] = []
            var rows: [String] = []
            for (position, element) in zip(batch.indices, batch) {
                let first = values.count
                values += [
                    Element.storedText(of: element.id), String(Int64(position + 1) * RowRank.gap),
                ]
                values += Element.fields.map { $0.text(in: element) }
                rows.append(
                    "(" + (first + 1...values.count).map { "$\($0)" }.joined(separator: ", ") + ")")
            }
            try connection.run(
                "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES \(rows.joined(separator: ", "))",
                values)
            start += batch.count
        }
    }

    /// Makes the list's table, which must not exist yet, holding `elements`: in one transaction,
    /// so a failure leaves nothing.
    ///
    /// - Throws: `PersistenceError.unwritable` if a list of that name is already there (it is
    ///   never replaced), or the server cannot be reached or refuses.
    func create(_ elements: [Element]) throws(PersistenceError) {
        if let refusal = elements.lazy.compactMap(Self.unstorable).first {
            throw .unwritable(path: location.description, reason: refusal)
        }
        try withConnection { connection in
            try connection.transaction {
                try TableSchema.takeSetUpTurn(connection)
                try connection.run(TableSchema.lists)
                try connection.run(TableSchema.tracking)
                let taken =
                    try !connection.run(
                        "SELECT 1 FROM mvclayers_lists WHERE list = $1", [location.table]
                    ).isEmpty || connection.run("SELECT to_regclass($1)", [table]).first?[0] != nil
                if taken {
                    throw PersistenceError.unwritable(
                        path: location.description,
                        reason:
                            "a list or table of that name is already there; it was left as it is")
                }
                try connection.run(
                    "INSERT INTO mvclayers_lists (list, kind, version) VALUES ($1, $2, $3)",
                    [location.table, Element.databaseKind, String(TableSchema.version)])
                // The trigger last: rows a new list starts with are no change anyone has to
                // hear of (every client reads a new list whole), and its counter stays at 0.
                let statements = TableSchema.making(location.table, for: Element.self)
                for statement in statements.dropLast() { try connection.run(statement) }
                try insertAll(elements, connection)
                if let trigger = statements.last { try connection.run(trigger) }
                // Statistics now: until autovacuum gathers them, the planner guesses.
                try connection.run("ANALYZE \(table)")
            }
        }
    }
}

extension String {
    /// The integer this text spells, as PostgreSQL writes a `bigint`.
    var int64: Int64? { Int64(self) }
}

/// The ranks of a list's table, for ``/MVCListStore/RowRank``'s placement.
private struct TableRanks: StoredRanks {
    let table: String
    let connection: PostgresConnection

    func rank(of key: String) throws -> Int64? {
        try connection.run("SELECT rank FROM \(table) WHERE id = $1", [key]).first?[0]?.int64
    }

    func nearest(to rank: Int64, upward: Bool, excluding excluded: [String]) throws -> Int64? {
        let marks = (0..<excluded.count).map { "$\($0 + 2)" }.joined(separator: ", ")
        return try connection.run(
            "SELECT rank FROM \(table) WHERE rank \(upward ? ">=" : "<=") $1 AND id NOT IN (\(marks)) ORDER BY rank\(upward ? "" : " DESC") LIMIT 1",
            [String(rank)] + excluded
        ).first?[0]?.int64
    }

    func renumber() throws {
        try connection.run(
            """
            UPDATE \(table) t SET rank = n.rank FROM (SELECT id, (row_number() OVER (ORDER BY rank, id)
                - count(*) OVER () / 2) * \(RowRank.gap) AS rank FROM \(table)) n WHERE t.id = n.id
            """)
    }
}
