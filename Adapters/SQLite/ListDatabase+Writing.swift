import Foundation
import MVCModel
import MVCStore

/// Writing: one edit a transaction, and whole new databases.
extension ListDatabase {
    /// Writes one edit in a transaction of its own, durably, merged with the stored row by the
    /// rule every adapter asks (``/MVCStore/ElementMerge``); returns what to tell of another
    /// program's edits it met, and whether the row now differs from the edit's (then the store
    /// takes the row in at the next look).
    func write(_ write: RowWrite<Element>) throws(PersistenceError)
        -> (notices: [String], differs: Bool)
    {
        let connection = try connected()
        if let readOnlyReason { throw .unwritable(path: path, reason: readOnlyReason) }
        if let waitingUntil { connection.setBusyWait(max(.zero, waitingUntil - .now)) }
        let seen = seenChange
        let (outcome, before, after, stamp) = try sqliteCall(writing: true) {
            try connection.writing {
                () throws -> (ElementMerge<Element>.Outcome, Int64, Int64, Int64?) in
                // Made a newer version (or unmade) by another program meanwhile: not written.
                let version = try DatabaseSchema.storedVersion(connection, path: path)
                if version != DatabaseSchema.version { throw DatabaseSchema.notMine(path) }
                let counter = "SELECT last FROM change_counter"
                // A counter row another program deleted is made again, or every write would fail.
                if try connection.integer(counter) == nil {
                    try DatabaseSchema.remakeCounter(connection)
                }
                let before = try connection.integer(counter) ?? 0
                let outcome = try apply(write, in: connection)
                let after = try connection.integer(counter) ?? 0
                return (outcome, before, after, try DatabaseSchema.stamp(of: after, in: connection))
            }
        }
        // No other program committed since the store last caught up, and the row is as this
        // process has it: the store has this change too. Otherwise the next look reads it.
        if before == seen, outcome.element == write.ours {
            (seenChange, seenStamp) = (after, stamp)
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
        let url = followingLinks(given)
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
                    try insert(
                        element, in: connection,
                        rank: Int64(position + 1) * DatabaseSchema.rankGap)
                }
            }
        }
    }

    /// Merges the edit with the stored row and writes the result: a row another program
    /// changed meanwhile keeps its edits, a result that would break the element's rules is not
    /// written (the stored row stays, told), and an insert over a row that exists merges.
    private func apply(_ write: RowWrite<Element>, in connection: SQLiteConnection) throws
        -> ElementMerge<Element>.Outcome
    {
        let id = write.change.element.id
        let stored = try storedRow(of: id, in: connection)
        // A row another program wrote that cannot be read (skipped and told at its look) is no
        // deletion: it counts as untouched, so this process's version is written over it.
        let theirs = stored.exists ? stored.element ?? write.base ?? write.ours : nil
        let outcome = ElementMerge.resolve(
            base: write.base, ours: write.ours, theirs: theirs)
        let place = {
            try self.rank(
                placing: id, after: write.predecessor, before: write.successor, in: connection)
        }
        switch (outcome.element, stored.exists) {
        case (nil, false): break
        case (nil, true):
            try connection.run(
                "DELETE FROM elements WHERE id = ?", .text(Element.storedText(of: id)))
        case (let element?, false):
            try insert(element, in: connection, rank: place())
        case (let element?, true):
            if element != stored.element {
                try connection.rows(
                    updateStatement,
                    [.text(Element.storedText(of: id))]
                        + Element.fields.map { DatabaseSchema.stored($0, in: element) },
                    columns: 0
                ) { _ in }
            }
            if case .moved = write.change {
                try connection.run(
                    "UPDATE elements SET rank = ? WHERE id = ?", .integer(place()),
                    .text(Element.storedText(of: id)))
            }
        }
        return outcome
    }

    /// The stored row with `id`: whether there is one, and its element (`nil` if it cannot be
    /// read or breaks a rule: a merge then writes over it).
    private func storedRow(of id: Element.ID, in connection: SQLiteConnection) throws
        -> (exists: Bool, element: Element?)
    {
        let fields = Element.fields
        var found: (exists: Bool, element: Element?) = (false, nil)
        try connection.rows(
            "SELECT \(fields.map { DatabaseSchema.reading($0, column: DatabaseSchema.quoted($0.name)) }.joined(separator: ", ")) FROM elements WHERE id = ?",
            [.text(Element.storedText(of: id))], columns: fields.count
        ) { row in
            var element = Element(blankWithID: id)
            for (text, field) in zip(row, fields) {
                guard let text else { continue }
                if field.set(text, in: &element) != nil {
                    found = (true, nil)
                    return
                }
            }
            found = (true, element.problems.isEmpty ? element : nil)
        }
        return found
    }

    private func insert(_ element: Element, in connection: SQLiteConnection, rank: Int64) throws {
        try connection.rows(
            insertStatement,
            [.text(Element.storedText(of: element.id)), .integer(rank)]
                + Element.fields.map { DatabaseSchema.stored($0, in: element) },
            columns: 0
        ) { _ in }
    }

    /// The rank that puts `id` right after `predecessor` (or right before `successor`, if the
    /// predecessor is gone; at the front if it had none; at the end if both are gone).
    private func rank(
        placing id: Element.ID, after predecessor: Element.ID?, before successor: Element.ID?,
        in connection: SQLiteConnection
    ) throws -> Int64 {
        for _ in 0..<2 {
            if let rank = try placement(
                of: id, after: predecessor, before: successor, in: connection)
            {
                return rank
            }
            try renumber(connection)
        }
        throw PersistenceError.unwritable(
            path: path, reason: "no room for a rank after renumbering")
    }

    /// The rank between the neighbours, or `nil` if they have no room (a row sharing a
    /// neighbour's rank, set by hand, leaves none).
    private func placement(
        of id: Element.ID, after predecessor: Element.ID?, before successor: Element.ID?,
        in connection: SQLiteConnection
    ) throws -> Int64? {
        let key = SQLiteValue.text(Element.storedText(of: id))
        let rankOf = "SELECT rank FROM elements WHERE id = ?"
        if let predecessor,
            let low = try connection.integer(rankOf, .text(Element.storedText(of: predecessor)))
        {
            let high = try connection.integer(
                "SELECT rank FROM elements WHERE rank >= ? AND id NOT IN (?, ?) ORDER BY rank LIMIT 1",
                .integer(low), key, .text(Element.storedText(of: predecessor)))
            return RowRank.between(low, high)
        }
        if let successor,
            let high = try connection.integer(rankOf, .text(Element.storedText(of: successor)))
        {
            let low = try connection.integer(
                "SELECT rank FROM elements WHERE rank <= ? AND id NOT IN (?, ?) ORDER BY rank DESC LIMIT 1",
                .integer(high), key, .text(Element.storedText(of: successor)))
            return RowRank.between(low, high)
        }
        let edge = try connection.integer(
            "SELECT rank FROM elements WHERE id != ? ORDER BY rank\(predecessor == nil ? "" : " DESC") LIMIT 1",
            key)
        return predecessor == nil ? RowRank.between(nil, edge) : RowRank.between(edge, nil)
    }

    /// Gives every row a fresh rank, `rankGap` apart, in list order (rare: O(*n*)).
    private func renumber(_ connection: SQLiteConnection) throws {
        let ids = try connection.strings("SELECT id FROM elements ORDER BY rank, rowid")
        let start = -Int64(ids.count / 2) * DatabaseSchema.rankGap
        for (position, id) in ids.enumerated() {
            try connection.run(
                "UPDATE elements SET rank = ? WHERE id = ?",
                .integer(start + Int64(position) * DatabaseSchema.rankGap), .text(id))
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
