import Foundation
import MVCElements
import MVCListStore

/// Where a look of an SQLite database starts: the last change the store has, the change log's
/// stamp for it, and the `data_version` it was read at.
struct SQLiteMark: Sendable {
    var through: Int64
    var stamp: Int64?
    var dataVersion: Int64
}

/// What changed in the database after the last change the store has.
typealias DatabaseChanges<Element: SQLiteListElement> = RowChanges<Element, SQLiteMark>

/// Taking in other programs' commits: what changed since the last change the store has.
extension ListDatabase {
    /// How many changed rows a look reads one by one; past that, reading the whole list is
    /// cheaper than placing each row.
    static var rowsReadOneByOne: Int { 20_000 }
    /// How many rows before a changed row a look names, for placing it.
    static var predecessorsNamed: Int { 4 }

    /// What another connection committed since the last look (`nil` if nothing), read in one
    /// transaction with the schema check: a file unmade between the two is never read as a list
    /// with every row deleted.
    func look() -> Result<DatabaseChanges<Element>?, PersistenceError> {
        Result { () throws(PersistenceError) in
            let connection = try connected()
            let version = try sqliteCall { try connection.integer("PRAGMA data_version") ?? 0 }
            guard version != seenDataVersion else { return nil }
            let seen = seenChange
            let stamp = seenStamp
            let found = try sqliteCall {
                try connection.reading { () throws -> DatabaseChanges<Element>? in
                    try changes(after: seen, stamped: stamp, in: connection, dataVersion: version)
                }
            }
            // Nothing of the list's changed (a commit to another table): nothing to take in.
            if found == nil { seenDataVersion = version }
            return found
        }
    }

    /// Records that the store took in the changes through `mark`.
    ///
    /// The next look reads what came after: exactly its change, even below the last one seen,
    /// since a copy restored in place took the counter back, and the commits that bring it up
    /// are new.
    func tookIn(_ mark: SQLiteMark) {
        seenChange = mark.through
        seenStamp = mark.stamp
        seenDataVersion = mark.dataVersion
    }

    /// The changes after `seen`, inside a read transaction.
    private func changes(
        after seen: Int64, stamped stamp: Int64?, in connection: SQLiteConnection,
        dataVersion: Int64
    ) throws -> DatabaseChanges<Element>? {
        // Unmade by another program (version cleared, a column or table gone): told before any
        // row is read.
        let stored = try DatabaseSchema.storedVersion(connection, path: path)
        let columns = try DatabaseSchema.elementColumns(connection)
        let tables = try connection.integer(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('elements', 'meta', 'change_counter', 'tombstones')"
        )
        guard stored == DatabaseSchema.version, tables == 4, columns.contains("row_change"),
            Element.fields.allSatisfy({ columns.contains($0.name) })
        else { throw DatabaseSchema.notMine(path) }
        guard try DatabaseSchema.isTracking(connection) else {
            throw PersistenceError.corrupt(
                path: path,
                reason:
                    "another program removed the triggers that record its changes, so other programs' edits are not seen; opening it again puts them back"
            )
        }
        var last: Int64 = 0
        var pruned: Int64 = 0
        try connection.rows("SELECT last, pruned FROM change_counter", [], columns: 2) { row in
            last = row[0].flatMap { Int64($0) } ?? 0
            pruned = row[1].flatMap { Int64($0) } ?? 0
        }
        // The file still holds the history the store has: a copy restored in place and edited
        // since holds another stamp at the change last seen, or none.
        let stampAtSeen = seen > 0 ? try DatabaseSchema.stamp(of: seen, in: connection) : nil
        let historyKept = seen <= 0 || stampAtSeen == stamp
        guard last != seen || !historyKept else { return nil }
        var changes = DatabaseChanges<Element>(
            mark: SQLiteMark(
                through: last, stamp: try DatabaseSchema.stamp(of: last, in: connection),
                dataVersion: dataVersion))
        let changedRows =
            try connection.integer(
                "SELECT count(*) FROM elements WHERE row_change > ?", .integer(seen)) ?? 0
        // Fallen behind the tombstones kept (or the counter went back: a file put back), or most
        // of the list changed: the whole list, once.
        if !historyKept || seen < pruned || last < seen || changedRows > Self.rowsReadOneByOne {
            let decoded = try RowDecoder<Element>.readAll(connection)
            changes.whole = (decoded.list.elements, decoded.problems.map(\.reason))
            return changes
        }
        let rows = try StoredRows.read(connection, for: Element.self, changedAfter: seen)
        for (index, row) in RowDecoder<Element>.each(rows).enumerated() {
            let place = rows.places[index]
            let before = try connection.strings(
                "SELECT id FROM elements WHERE rank <= ?1 AND NOT (rank = ?1 AND rowid >= ?2) ORDER BY rank DESC, rowid DESC LIMIT \(Self.predecessorsNamed)",
                .integer(place.rank), .integer(place.rowid))
            changes.rows.append(
                ChangedRow(
                    element: row.element, problem: row.problem,
                    predecessors: before.compactMap { Element.id(stored: $0) }))
        }
        changes.deleted = try connection.strings(
            "SELECT id FROM tombstones WHERE row_change > ?", .integer(seen)
        ).compactMap { Element.id(stored: $0) }
        return changes
    }
}

extension ListDatabase: RowDatabase {
    nonisolated var shortName: String { url.lastPathComponent }
    nonisolated var place: String { path }
    nonisolated var others: String { "programs" }
    /// None: the next poll looks again.
    nonisolated var lookRetry: Duration? { nil }

    /// Always gives up: a write begun once closing began has waited out the locks already.
    nonisolated func closingGivesUp(
        after error: PersistenceError, patience: Duration, deadlinePassed: Bool
    ) -> String? {
        error == locked(for: patience)
            ? "another program kept the database locked for over \(patience) while it closed"
            : error.reason
    }

    /// Makes the next look read the whole list, whatever its counter says.
    func readWholeListNext() {
        seenChange = -1
        seenStamp = nil
        seenDataVersion = -1
    }
}
