import Foundation
import MVCModel
import MVCStore

/// Writing: one edit a transaction, and whole new databases.
extension ListDatabase {
    /// Writes one edit in a transaction of its own, durably; returns what to tell of another
    /// program's edits it kept.
    func write(_ write: RowWrite<Element>) throws(PersistenceError) -> [String] {
        let connection = try connected()
        if let readOnlyReason { throw .unwritable(path: path, reason: readOnlyReason) }
        if let waitingUntil { connection.setBusyWait(max(.zero, waitingUntil - .now)) }
        return try sqliteCall(writing: true) {
            try connection.writing {
                // Made a newer version (or unmade) by another program meanwhile: not written.
                let version = try DatabaseSchema.storedVersion(connection, path: path)
                if version != DatabaseSchema.version { throw DatabaseSchema.notMine(path) }
                return try apply(write, in: connection)
            }
        }
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

    /// Writes the edit; returns what to tell of another program's edits it kept.
    private func apply(_ write: RowWrite<Element>, in connection: SQLiteConnection) throws
        -> [String]
    {
        switch write.change {
        case .inserted(let element, _):
            let rank = try rank(
                placing: element.id, after: write.predecessor, before: write.successor,
                in: connection)
            try insert(element, in: connection, rank: rank)
        case .removed(let element, _):
            // Edited by another program since this one read it: kept, as the JSON merge keeps it.
            let stored = try storedTexts(of: element.id, in: connection)
            if let stored, stored != Element.fields.map({ $0.text(in: element) }) {
                return [MergeNotice.deletedHereEditedThere(element.title)]
            }
            try connection.run("DELETE FROM elements WHERE id = ?", .text(element.id.description))
        case .moved(let element, _, _):
            let rank = try rank(
                placing: element.id, after: write.predecessor, before: write.successor,
                in: connection)
            try connection.run(
                "UPDATE elements SET rank = ? WHERE id = ?", .integer(rank),
                .text(element.id.description))
        case .replaced(let old, let new, _):
            return try replace(old, with: new, placing: write, in: connection)
        }
        return []
    }

    /// Writes the fields the edit changed, as the JSON document's merge would: another
    /// program's edit of another field stands; a field it changed since this program read it
    /// keeps its version (told); a row it deleted is written again whole.
    private func replace(
        _ old: Element, with new: Element, placing write: RowWrite<Element>,
        in connection: SQLiteConnection
    ) throws -> [String] {
        guard let stored = try storedTexts(of: new.id, in: connection) else {
            try insert(
                new, in: connection,
                rank: rank(
                    placing: new.id, after: write.predecessor, before: write.successor,
                    in: connection))
            return [MergeNotice.deletedThereEditedHere(old.title)]
        }
        var conflicts: [String] = []
        for (index, field) in Element.fields.enumerated() where !field.isEqual(new, old) {
            let now = stored[index]
            let (before, after) = (field.text(in: old), field.text(in: new))
            if now == after { continue }
            guard now == before else {
                conflicts.append(
                    MergeNotice.fieldEditedOnBothSides(
                        old.title, field: field.name, here: after, there: now))
                continue
            }
            try connection.run(
                "UPDATE elements SET \(DatabaseSchema.quoted(field.name)) = ? WHERE id = ?",
                .text(after), .text(new.id.description))
        }
        return conflicts
    }

    /// The row's field texts (a `NULL` read as the field's default), or `nil` if there is no row.
    private func storedTexts(of id: Element.ID, in connection: SQLiteConnection) throws
        -> [String]?
    {
        let fields = Element.fields
        var stored: [String]?
        try connection.rows(
            "SELECT \(fields.map { DatabaseSchema.quoted($0.name) }.joined(separator: ", ")) FROM elements WHERE id = ?",
            [.text(id.description)], columns: fields.count
        ) { row in
            let blank = Element(blankWithID: id)
            stored = zip(row, fields).map { text, field in text ?? field.text(in: blank) }
        }
        return stored
    }

    private func insert(_ element: Element, in connection: SQLiteConnection, rank: Int64) throws {
        try connection.rows(
            insertStatement,
            [.text(element.id.description), .integer(rank)]
                + Element.fields.map { .text($0.text(in: element)) },
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
        let key = SQLiteValue.text(id.description)
        let rankOf = "SELECT rank FROM elements WHERE id = ?"
        if let predecessor, let low = try connection.integer(rankOf, .text(predecessor.description))
        {
            let high = try connection.integer(
                "SELECT rank FROM elements WHERE rank >= ? AND id NOT IN (?, ?) ORDER BY rank LIMIT 1",
                .integer(low), key, .text(predecessor.description))
            return Self.between(low, high)
        }
        if let successor, let high = try connection.integer(rankOf, .text(successor.description)) {
            let low = try connection.integer(
                "SELECT rank FROM elements WHERE rank <= ? AND id NOT IN (?, ?) ORDER BY rank DESC LIMIT 1",
                .integer(high), key, .text(successor.description))
            return Self.between(low, high)
        }
        let edge = try connection.integer(
            "SELECT rank FROM elements WHERE id != ? ORDER BY rank\(predecessor == nil ? "" : " DESC") LIMIT 1",
            key)
        return predecessor == nil ? Self.between(nil, edge) : Self.between(edge, nil)
    }

    /// A rank strictly between `low` and `high` (either may be open), or `nil` if there is none.
    static func between(_ low: Int64?, _ high: Int64?) -> Int64? {
        switch (low, high) {
        case (nil, nil): return 0
        case (let low?, nil):
            let (rank, overflow) = low.addingReportingOverflow(DatabaseSchema.rankGap)
            return overflow ? nil : rank
        case (nil, let high?):
            let (rank, overflow) = high.subtractingReportingOverflow(DatabaseSchema.rankGap)
            return overflow ? nil : rank
        case (let low?, let high?):
            // low <= high always; halving the distance cannot overflow.
            let distance = high / 2 - low / 2 + (high % 2 - low % 2) / 2
            return distance >= 1 && low + distance < high ? low + distance : nil
        }
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
