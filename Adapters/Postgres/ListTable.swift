import Foundation
import MVCElements
import MVCListStore
import Synchronization

/// Where a look of a table starts: the last change the store has, and the epoch of the list it
/// was counted in.
struct TableMark: Sendable {
    var through: Int64
    var epoch: String
}

/// What changed in the table after the last change the store has.
typealias TableChanges<Element: RowListElement> = RowChanges<Element, TableMark>

/// A list kept in a PostgreSQL table (see `TableSchema`): an actor on a queue of its own, since
/// libpq's calls block. Connects when first asked, and again after the connection is lost.
actor ListTable<Element: RowListElement> {
    nonisolated let location: PostgresLocation
    private let executor = QueueExecutor(label: "MVCPostgresStore")
    private var connection: PostgresConnection?
    /// The last change the store has (every change up to it is in the store's list), and the
    /// epoch of the list it was counted in.
    private(set) var seenChange: Int64 = 0
    private(set) var seenEpoch = ""

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// The server process of the connection writes go through (0: none yet): the listener
    /// skips the notifications of its commits.
    nonisolated let writer = Atomic<Int32>(0)

    init(location: PostgresLocation) {
        self.location = location
    }

    var table: String { PostgresLocation.quoted(location.table) }

    /// The connection, made again if there is none or it was lost.
    private func connected() throws(PersistenceError) -> PostgresConnection {
        if let connection, !connection.isLost { return connection }
        connection = nil
        do {
            let made = try PostgresConnection(settings: location.settings)
            connection = made
            writer.store(made.serverProcess, ordering: .relaxed)
            return made
        } catch {
            throw persistenceError(error)
        }
    }

    /// The error a failure is shown as: where, and what to do.
    nonisolated func persistenceError(_ error: any Error) -> PersistenceError {
        if let error = error as? PersistenceError { return error }
        guard let failure = error as? PostgresFailure else {
            return .unreadable(path: location.description, reason: "\(error)")
        }
        // 55P03: waited out `lock_timeout` for a lock another session held.
        if failure.state == "55P03" {
            return .unwritable(
                path: location.description,
                reason:
                    "another session kept the list locked past the wait allowed (\(failure.message))"
            )
        }
        switch failure.kind {
        case .unreachable:
            return .unwritable(
                path: location.description,
                reason: "the server cannot be reached (\(failure.message))")
        case .refused:
            return .unreadable(
                path: location.description, reason: "the server refused: \(failure.message)")
        }
    }

    /// Runs `body` with the connection, turning every failure into a `PersistenceError`; a
    /// failure that lost the connection drops it, to be made again at the next call.
    func withConnection<Value>(
        _ body: (PostgresConnection) throws -> Value
    ) throws(PersistenceError) -> Value {
        let connection = try connected()
        do {
            return try body(connection)
        } catch {
            if connection.isLost { self.connection = nil }
            throw persistenceError(error)
        }
    }

    /// Opens the list: makes its table if there is none, checks it if there is, and reads it.
    ///
    /// - Throws: `PersistenceError` if the server cannot be reached or refuses, the table holds
    ///   another kind of list (or is not this program's), or is of a newer layout.
    func open(creating: Bool = true) throws(PersistenceError) -> (
        list: EditableList<Element>, problems: [(row: Int, reason: String)]
    ) {
        do throws(PersistenceError) {
            return try made(creating: creating)
        } catch .unwritable(let path, let reason) {
            // Nothing was saved: the list could not be read.
            throw .unreadable(path: path, reason: reason)
        }
    }

    private func made(creating: Bool) throws(PersistenceError) -> (
        list: EditableList<Element>, problems: [(row: Int, reason: String)]
    ) {
        try withConnection { connection in
            try connection.transaction {
                try TableSchema.takeSetUpTurn(connection)
                try connection.run(TableSchema.lists)
                // Written only when it is not this code's: DDL on every opening would take locks
                // and change the catalog each time.
                let tracking = try connection.run(
                    "SELECT 1 FROM pg_proc WHERE proname = 'mvclayers_track' AND prosrc = $1",
                    [TableSchema.trackingBody])
                if tracking.isEmpty { try connection.run(TableSchema.tracking) }
                let registered = try connection.run(
                    "SELECT kind, version FROM mvclayers_lists WHERE list = $1", [location.table])
                let exists =
                    try connection.run("SELECT to_regclass($1)", [table]).first?.first ?? nil
                if let row = registered.first {
                    try check(
                        kind: row[0], version: Int(row[1] ?? "") ?? 0, tableExists: exists != nil)
                    // Only a column missing takes the table's exclusive lock: one taken at every
                    // opening would queue every other client behind any long read.
                    let columns = try connection.run(
                        "SELECT attname FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped",
                        [table]
                    ).compactMap { $0.first ?? nil }
                    for field in Element.fields where !columns.contains(field.name) {
                        try connection.run(
                            "ALTER TABLE \(table) ADD COLUMN IF NOT EXISTS \(PostgresLocation.quoted(field.name)) \(TableSchema.type(of: field))"
                        )
                    }
                } else {
                    if !creating {
                        throw PersistenceError.unreadable(
                            path: location.description, reason: "there is no such list")
                    }
                    if exists != nil {
                        throw PersistenceError.corrupt(
                            path: location.description,
                            reason: "a table of that name is there, not made by this program")
                    }
                    try connection.run(
                        "INSERT INTO mvclayers_lists (list, kind, version) VALUES ($1, $2, $3)",
                        [location.table, Element.databaseKind, String(TableSchema.version)])
                    for statement in TableSchema.making(location.table, for: Element.self) {
                        try connection.run(statement)
                    }
                }
            }
            let read = try readWhole(connection)
            (seenChange, seenEpoch) = (read.through, read.epoch)
            return (read.list, read.problems)
        }
    }

    private func check(kind: String?, version: Int, tableExists: Bool) throws(PersistenceError) {
        if kind != Element.databaseKind {
            throw .corrupt(
                path: location.description,
                reason: "it holds \(kind ?? "nothing known"), not \(Element.databaseKind)")
        }
        if version > TableSchema.version {
            throw .newerVersion(
                path: location.description, found: version, supported: TableSchema.version)
        }
        if !tableExists {
            throw .corrupt(
                path: location.description,
                reason:
                    "mvclayers_lists names it, but the table is gone; delete its row there to start again"
            )
        }
    }

    /// The whole list, in one snapshot with the counter it is at.
    private func readWhole(_ connection: PostgresConnection) throws -> (
        list: EditableList<Element>, problems: [(row: Int, reason: String)], through: Int64,
        epoch: String
    ) {
        try connection.transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") {
            let (through, _, epoch) = try counter(connection)
            // A unique index of `id` alone (the primary key this program made) keeps each id
            // once: the list is indexed after it is shown.
            let keyed = try connection.run(
                "SELECT count(*) FROM pg_index WHERE indrelid = $1::regclass AND indisunique AND indnkeyatts = 1 AND indpred IS NULL AND indkey[0] = (SELECT attnum FROM pg_attribute WHERE attrelid = $1::regclass AND attname = 'id')",
                [table])
            let distinct = (keyed.first?.first ?? nil).flatMap { Int($0) } ?? 0 > 0
            let (list, problems) = try Element.decodedRows(distinctIDs: distinct) { hand in
                try connection.rows(
                    "SELECT \(TableSchema.selected(Element.self)) FROM \(table) ORDER BY rank, id",
                    handing: hand)
            }
            return (list, problems, through, epoch)
        }
    }

    /// A row read as `id, <fields>` as an element, or why it cannot be taken in.
    func decode(_ row: ArraySlice<String?>, fields: ContiguousArray<ElementField<Element>>)
        -> (element: Element?, problem: String?)
    {
        var batch = RowBatch(fields: fields.count)
        for text in row { batch.append(text) }
        return Element.decoded(row: 0, of: batch, fields: fields)
    }

    /// The list's counter, how far tombstones were pruned, and its epoch.
    private func counter(_ connection: PostgresConnection) throws -> (Int64, Int64, String) {
        guard
            let row = try connection.run(
                "SELECT last_change, pruned, epoch FROM mvclayers_lists WHERE list = $1",
                [location.table]
            ).first,
            let last = Int64(row[0] ?? ""), let pruned = Int64(row[1] ?? ""), let epoch = row[2]
        else {
            throw PersistenceError.corrupt(
                path: location.description, reason: "its row in mvclayers_lists is gone")
        }
        return (last, pruned, epoch)
    }

    /// What other clients committed after the last change the store has; `nil` if nothing.
    func look() -> Result<TableChanges<Element>?, PersistenceError> {
        let seen = seenChange
        let epoch = seenEpoch
        do throws(PersistenceError) {
            return .success(
                try withConnection { connection in
                    try changes(after: seen, epoch: epoch, connection)
                })
        } catch {
            return .failure(error)
        }
    }

    private func changes(
        after seen: Int64, epoch seenEpoch: String, _ connection: PostgresConnection
    )
        throws -> TableChanges<Element>?
    {
        let read: TableChanges<Element>?? = try connection.transaction(
            "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
        ) {
            let (last, pruned, epoch) = try counter(connection)
            if epoch == seenEpoch, last == seen { return .some(nil) }
            // Made again, fallen behind the tombstones, or the counter went back: read whole.
            guard epoch == seenEpoch, seen >= pruned, last > seen else { return nil }
            let fields = ContiguousArray(Element.fields)
            // The changed rows first, in change order: read through the change index however
            // the planner guesses (ordered by rank, it would read every row to find a few).
            let rows = try connection.run(
                """
                WITH c AS MATERIALIZED (SELECT * FROM \(table) WHERE row_change > $1
                    ORDER BY row_change LIMIT $2)
                SELECT \(TableSchema.selected(Element.self, in: "c")),
                    (SELECT json_agg(b.id) FROM (SELECT id FROM \(table) WHERE (rank, id) < (c.rank, c.id)
                        ORDER BY rank DESC, id DESC LIMIT \(Self.predecessorsNamed)) b)
                FROM c ORDER BY c.rank, c.id
                """, [String(seen), String(Self.rowsReadOneByOne + 1)])
            if rows.count > Self.rowsReadOneByOne { return nil }
            var changes = TableChanges<Element>(mark: TableMark(through: last, epoch: epoch))
            for row in rows {
                let before = row.last.flatMap { $0 }.flatMap {
                    try? JSONDecoder().decode([String].self, from: Data($0.utf8))
                }
                let predecessors = (before ?? []).compactMap { Element.id(stored: $0) }
                let (element, problem) = decode(row.dropLast(), fields: fields)
                changes.rows.append(
                    ChangedRow(element: element, problem: problem, predecessors: predecessors))
            }
            changes.deleted = try connection.run(
                "SELECT id FROM \(PostgresLocation.quoted(location.table + "_tombstones")) WHERE row_change > $1",
                [String(seen)]
            ).compactMap { $0[0].flatMap { Element.id(stored: $0) } }
            return .some(changes)
        }
        if let read { return read }
        let whole = try readWhole(connection)
        var changes = TableChanges<Element>(
            mark: TableMark(through: whole.through, epoch: whole.epoch))
        changes.whole = (whole.list.elements, whole.problems.map(\.reason))
        return changes
    }

    /// The store took in every change up to `mark`.
    func tookIn(_ mark: TableMark) {
        (seenChange, seenEpoch) = (mark.through, mark.epoch)
    }

    /// Lets go of the connection.
    func close() { connection = nil }
}

extension ListTable: RowDatabase {
    nonisolated var shortName: String { location.table }
    nonisolated var place: String { location.description }
    nonisolated var others: String { "clients" }
    /// Half a second: a look can fail while the listener stays connected, and hears nothing new.
    nonisolated var lookRetry: Duration? { .milliseconds(500) }

    /// The next look reads the whole list.
    func readWholeListNext() { tookIn(TableMark(through: -1, epoch: "")) }

    func closingBegan(patience: Duration) {}

    /// Gives up once the patience ran out, with the last reason the server gave.
    nonisolated func closingGivesUp(
        after error: PersistenceError, patience: Duration, deadlinePassed: Bool
    ) -> String? {
        deadlinePassed ? error.reason : nil
    }
}
