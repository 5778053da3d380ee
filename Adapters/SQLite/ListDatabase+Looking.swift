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
    /// What another connection committed since the last look (`nil` if nothing), read in one
    /// transaction with the schema check: a file unmade between the two is never read as a list
    /// with every row deleted.
    func look() -> Result<DatabaseChanges<Element>?, PersistenceError> {
        Result { () throws(PersistenceError) in
            let connection = try connected()
            let version = try sqliteCall { try connection.integer("PRAGMA data_version") ?? 0 }
            guard version != mark.dataVersion else { return nil }
            let found = try sqliteCall {
                try connection.reading { try changes(in: connection, dataVersion: version) }
            }
            // Nothing of the list's changed (a commit to another table): nothing to take in.
            if found == nil { mark.dataVersion = version }
            return found
        }
    }

    /// Records that the store took in the changes through `mark`: the next look reads what came
    /// after, even below the last change seen (a copy restored in place took the counter back).
    func tookIn(_ mark: SQLiteMark) { self.mark = mark }

    /// The changes after the last one seen, inside a read transaction.
    private func changes(in connection: SQLiteConnection, dataVersion: Int64) throws
        -> DatabaseChanges<Element>?
    {
        let (seen, stamp) = (mark.through, mark.stamp)
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
        var (last, pruned): (Int64, Int64) = (0, 0)
        try connection.rows("SELECT last, pruned FROM change_counter") { row in
            (last, pruned) = (row[0].flatMap { Int64($0) } ?? 0, row[1].flatMap { Int64($0) } ?? 0)
        }
        // The file still holds the history the store has: a copy restored in place and edited
        // since holds another stamp at the change last seen, or none.
        let historyKept = try seen <= 0 || DatabaseSchema.stamp(of: seen, in: connection) == stamp
        guard last != seen || !historyKept else { return nil }
        var changes = DatabaseChanges<Element>(
            mark: SQLiteMark(
                through: last, stamp: try DatabaseSchema.stamp(of: last, in: connection),
                dataVersion: dataVersion))
        let changedRows =
            try connection.integer(
                "SELECT count(*) FROM elements WHERE row_change > ?", [.integer(seen)]) ?? 0
        // Fallen behind the tombstones kept (or the counter went back: a file put back), or most
        // of the list changed: the whole list, once.
        if !historyKept || seen < pruned || last < seen || changedRows > Self.rowsReadOneByOne {
            let decoded = try StoredRows.readAll(connection, for: Element.self)
            changes.whole = (decoded.list.elements, decoded.problems.map(\.reason))
            return changes
        }
        let rows = try StoredRows.read(connection, for: Element.self, changedAfter: seen)
        let fields = ContiguousArray(Element.fields)
        for (row, place) in rows.places.enumerated() {
            let before = try connection.strings(
                "SELECT id FROM elements WHERE rank <= ?1 AND NOT (rank = ?1 AND rowid >= ?2) ORDER BY rank DESC, rowid DESC LIMIT \(Self.predecessorsNamed)",
                [.integer(place.rank), .integer(place.rowid)])
            let (element, problem) = Element.decoded(row: row, of: rows.batch, fields: fields)
            changes.rows.append(
                ChangedRow(
                    element: element, problem: problem,
                    predecessors: before.compactMap { Element.id(stored: $0) }))
        }
        changes.deleted = try connection.strings(
            "SELECT id FROM tombstones WHERE row_change > ?", [.integer(seen)]
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
    func readWholeListNext() { mark = SQLiteMark(through: -1, stamp: nil, dataVersion: -1) }
}
