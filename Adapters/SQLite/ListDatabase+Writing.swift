import Foundation
import MVCElements
import MVCListStore

/// Writing: one edit a transaction, and whole new databases.
extension ListDatabase {
    /// Writes one edit in a transaction of its own, as ``/MVCListStore/RowDatabase`` asks.
    func write(_ write: RowWrite<Element>) throws(PersistenceError)
        -> (notices: [String], differs: Bool)
    {
        let connection = try connected()
        if let readOnlyReason { throw .unwritable(path: path, reason: readOnlyReason) }
        if let waitingUntil { connection.setBusyWait(max(.zero, waitingUntil - .now)) }
        let (outcome, before, after, stamp) = try sqliteCall(writing: true) {
            try connection.writing {
                () throws -> (ElementMerge<Element>.Outcome, Int64, Int64, Int64?) in
                // Made a newer version (or unmade) by another program meanwhile: not written.
                let version = try DatabaseSchema.storedVersion(connection, path: path)
                if version != DatabaseSchema.version { throw DatabaseSchema.notMine(path) }
                let counter = "SELECT last FROM change_counter"
                // A counter row another program deleted is made again, or every write would fail.
                let before =
                    try connection.integer(counter) ?? DatabaseSchema.remakeCounter(connection)
                let outcome = try apply(write, in: connection)
                let after = try connection.integer(counter) ?? 0
                return (outcome, before, after, try DatabaseSchema.stamp(of: after, in: connection))
            }
        }
        // No other program committed since the store last caught up, and the row is as this
        // process has it: the store has this change too. Otherwise the next look reads it.
        if before == mark.through, outcome.element == write.ours {
            (mark.through, mark.stamp) = (after, stamp)
        }
        return (outcome.notices, outcome.element != write.ours)
    }

    /// The error of a write that failed only because another program kept the lock for `wait`.
    nonisolated func locked(for wait: Duration) -> PersistenceError {
        .unwritable(
            path: path, reason: "another program kept the database locked for longer than \(wait)")
    }

    /// Writes `elements` as a new database at `url`, never over a file already there: a write
    /// that fails part-way leaves nothing at `url`.
    static func create(_ elements: [Element], at given: URL) async throws(PersistenceError) {
        let url = SymbolicLinks.target(of: given, hops: SymbolicLinks.sqliteHops) ?? given
        // Made empty first, and only if nothing is there: SQLite then opens it as a new database.
        let failure = makeNewFile(at: url.path)
        guard failure == 0 else {
            let isFolder = fileStatus(url.path).map { $0.st_mode & S_IFMT == S_IFDIR } == true
            let reason =
                failure != EEXIST
                ? String(cString: strerror(failure))
                : isFolder
                    ? "a folder is already there" : "a file is already there; it was left as it is"
            throw .unwritable(path: url.path, reason: reason)
        }
        let database = ListDatabase(url: url)
        do throws(PersistenceError) {
            _ = try await database.open()
            try await database.fill(with: elements)
            await database.close()
        } catch {
            await database.close()
            for suffix in ["", "-wal", "-shm"] { unlink(url.path + suffix) }
            throw error
        }
    }

    /// Writes `elements` into the new database just opened, in one transaction.
    private func fill(with elements: [Element]) throws(PersistenceError) {
        let connection = try connected()
        try sqliteCall(writing: true) {
            try connection.writing {
                for (position, element) in elements.enumerated() {
                    try insert(element, rank: Int64(position + 1) * RowRank.gap, connection)
                }
            }
        }
    }

    /// Merges the edit with the stored row and writes the result, as ``/MVCListStore/RowWrite``'s
    /// plan says.
    private func apply(_ write: RowWrite<Element>, in connection: SQLiteConnection) throws
        -> ElementMerge<Element>.Outcome
    {
        let key = SQLiteValue.text(write.key)
        let (outcome, steps) = write.plan(stored: try storedRow(key, connection))
        let place = { try write.rank(in: SQLiteRanks(connection: connection), place: self.path) }
        for step in steps {
            switch step {
            case .delete: try connection.run("DELETE FROM elements WHERE id = ?", [key])
            case .insert(let element): try insert(element, rank: try place(), connection)
            case .update(let element):
                try connection.run(updateStatement, [key] + DatabaseSchema.stored(element))
            case .rank:
                try connection.run(
                    "UPDATE elements SET rank = ? WHERE id = ?", [.integer(try place()), key])
            }
        }
        return outcome
    }

    private func insert(_ element: Element, rank: Int64, _ connection: SQLiteConnection) throws {
        let id = SQLiteValue.text(Element.storedText(of: element.id))
        try connection.run(insertStatement, [id, .integer(rank)] + DatabaseSchema.stored(element))
    }

    /// The stored row with `key`: `nil` if none, `.some(nil)` if it is unreadable or breaks a rule.
    private func storedRow(_ key: SQLiteValue, _ connection: SQLiteConnection) throws -> Element?? {
        let fields = ContiguousArray(Element.fields)
        var found: Element?? = nil
        try connection.rows(selectStatement, [key]) { row in
            var batch = RowBatch(fields: fields.count)
            for column in 0...fields.count { row.withText(column) { batch.append($0) } }
            found = .some(Element.decoded(row: 0, of: batch, fields: fields).element)
        }
        return found
    }
}

/// The ranks of an SQLite list, for ``/MVCListStore/RowRank``'s placement.
private struct SQLiteRanks: StoredRanks {
    let connection: SQLiteConnection

    func rank(of key: String) throws -> Int64? {
        try connection.integer("SELECT rank FROM elements WHERE id = ?", [.text(key)])
    }

    func nearest(to rank: Int64, upward: Bool, excluding excluded: [String]) throws -> Int64? {
        let marks = Array(repeating: "?", count: excluded.count).joined(separator: ", ")
        return try connection.integer(
            "SELECT rank FROM elements WHERE rank \(upward ? ">=" : "<=") ? AND id NOT IN (\(marks)) ORDER BY rank\(upward ? "" : " DESC") LIMIT 1",
            [.integer(rank)] + excluded.map { .text($0) })
    }

    func renumber() throws {
        let ids = try connection.strings("SELECT id FROM elements ORDER BY rank, rowid")
        let start = -Int64(ids.count / 2) * RowRank.gap
        for (position, id) in ids.enumerated() {
            try connection.run(
                "UPDATE elements SET rank = ? WHERE id = ?",
                [.integer(start + Int64(position) * RowRank.gap), .text(id)])
        }
    }
}

/// Makes an empty file at `path` if nothing is there: 0, or the error number. (A free function:
/// inside `ListDatabase`, `open` and `close` name its own methods.)
private func makeNewFile(at path: String) -> Int32 {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return errno }
    close(descriptor)
    return 0
}
