import Foundation
public import MVCModel
import MVCPersistence
import MVCStore

/// An element a list store can keep in an SQLite database: one row per element, one column per
/// described field, the id as the row's key.
///
/// The columns come from ``/MVCModel/ListElement/fields``: a field added to the description
/// gets its column the next time a database is opened (existing rows read it as the field's
/// default), so the field is still described once. Each field is stored as the text an editor
/// shows (its `description`) and read back with its parse.
public protocol SQLiteListElement: ListElement where ID: LosslessStringConvertible {}

/// One edit on its way to the database: the change, and the neighbours the element has in this
/// process's list, which say where it goes.
struct RowWrite<Element: SQLiteListElement>: Sendable {
    var change: ListChange<Element>
    /// The element before it in the list after the change (`nil` at the front).
    var predecessor: Element.ID?
    /// The element after it (`nil` at the end).
    var successor: Element.ID?
}

/// What writing one edit found.
struct WriteResult<Element: SQLiteListElement>: Sendable {
    /// The element as the database now holds it, when that differs from the edit's.
    var merged: Element?
    /// For an insert or a move, the row it was placed after (`.some(nil)`: at the front).
    var predecessor: Element.ID??
    /// The edit's change log entry.
    var entry: Int64 = 0

    init(merged: Element? = nil, predecessor: Element.ID?? = nil) {
        self.merged = merged
        self.predecessor = predecessor
    }
}

/// What other processes committed since this one last looked.
enum RemoteChanges<Element: SQLiteListElement>: Sendable {
    /// The rows the change log names, as they are now, in list order; `element` is `nil` for one
    /// deleted, and `predecessor` is the row before it.
    case rows([RemoteRow<Element>], through: Int64, problems: [String])
    /// The whole list: the change log no longer reaches back to what this process saw last.
    case whole([Element], through: Int64, problems: [String])
}

/// One row another process changed, as it is now.
struct RemoteRow<Element: SQLiteListElement>: Sendable {
    var id: Element.ID
    var element: Element?
    var predecessor: Element.ID?
}

/// A list kept in an SQLite database: one row per element, each edit durable in a transaction of
/// its own, a log of changes that tells other processes what changed.
///
/// The schema (version 1, in `PRAGMA user_version`):
/// - `elements(id, rank, <one column per field>)`: the list is the rows in `rank` order. Ranks
///   leave gaps (2³² apart), so an insert or a move writes one row, the element's own, halfway
///   between its neighbours; only when a gap is used up are all rows renumbered.
/// - `changes(seq, element_id, origin)`: one entry per committed edit (`origin` names the
///   connection that made it and the edit's number there, a token no other entry has; see
///   `LogHistory`); a process reads the entries after the last one it saw and reads
///   those rows (its own included: a row it placed after a neighbour another process moved since
///   must follow that neighbour). The log
///   keeps its last 10,000 entries; a process further behind than that reads the whole list.
///   `seq` is the row id, one more than the largest: trimming keeps the newest entries, so a
///   number is not given twice (without `AUTOINCREMENT`, which would write one more table per
///   edit), unless the file is taken back to an older copy, which `LogHistory` notices.
/// - `meta(key, value)`: what the database holds (`kind`: the element's plural noun), so a
///   database of another list is refused.
///
/// An actor on a queue of its own (`QueueExecutor`): every call that can block, on `fsync` or on
/// another process's lock, runs there, never on the main actor or the cooperative pool.
actor ListDatabase<Element: SQLiteListElement> {
    /// The schema version this code reads and writes.
    static var schemaVersion: Int64 { 1 }
    /// How far apart new ranks are.
    static var rankGap: Int64 { 1 << 32 }
    /// How many change log entries are kept.
    static var keptChanges: Int64 { 10_000 }

    /// The statements that name every described field, written once.
    private struct FieldStatements {
        /// Inserts a row: id, rank, then each field.
        var insert: String
        /// Sets each field of the row with an id (the last parameter).
        var update: String
        /// Reads the id and each field of the row with an id.
        var select: String

        init() {
            let fields = Element.fields.map { ListDatabase.quoted($0.name) }
            let columns = (["id", "rank"] + fields).joined(separator: ", ")
            let parameters = Array(repeating: "?", count: fields.count + 2).joined(separator: ", ")
            insert = "INSERT OR REPLACE INTO elements (\(columns)) VALUES (\(parameters))"
            update =
                "UPDATE elements SET \(fields.map { "\($0) = ?" }.joined(separator: ", ")) WHERE id = ?"
            select =
                "SELECT \((["id"] + fields).joined(separator: ", ")) FROM elements WHERE id = ?"
        }
    }

    private let sql = FieldStatements()

    /// The database file.
    nonisolated let url: URL
    private let executor: QueueExecutor
    private let busyWait: Duration
    private var connection: SQLiteConnection?
    /// The log entries this connection knows of, and the tokens that mark its own.
    private var history = LogHistory(origin: UUID().uuidString, keeping: keptChanges)
    private var seenDataVersion: Int64 = -1
    /// The open file's device and inode, to notice it deleted or replaced by another program.
    private var identity: FileIdentity?
    /// The write-ahead log and shared-memory files the connection uses, as they were when it
    /// opened: SQLite names them after the path, so once the file is no longer there, they may
    /// be the new file's (see ``leaveReplacedFile()``).
    private var companions: [Companion] = []
    private var writesSincePruning = 0

    /// The executor the database's work runs on.
    nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// Describes the database at `url`; nothing is opened yet.
    ///
    /// - Parameter busyWait: How long an edit waits for another process's lock before it fails.
    init(url: URL, busyWait: Duration = .seconds(5)) {
        // The file itself, not a link to it: its folder is the one to watch, its identity the one
        // to compare, and its write-ahead log sits beside it.
        self.url = url.resolvingSymlinksInPath()
        self.busyWait = busyWait
        executor = QueueExecutor(label: "MVCSQLiteStore.\(url.lastPathComponent)")
    }

    /// The file's path, as errors show it.
    nonisolated var path: String { url.path }

    // MARK: Opening

    /// Opens the database, creating it if there is no file, and reads the whole list.
    ///
    /// A file that is not a database of this kind, or whose rows break the model's rules, is
    /// refused before anything is written to it.
    ///
    /// - Returns: The list (decoded on every core and indexed here, off the main actor), and the
    ///   last change log entry it includes.
    func open(leavingReplacedFile leaves: Bool = false) async throws(PersistenceError) -> (
        list: EditableList<Element>, through: Int64
    ) {
        // A reopening leaves the old file under the same hold of the folder lock as the new one
        // is made in.
        try attach(first: leaves ? leaveReplacedFileHoldingLock : {})
        do throws(PersistenceError) {
            // Several processes opening one new database at once can meet a lock that SQLite's
            // busy wait does not cover (the journal mode switching): each step can run again.
            // Taken before the rows are read: a commit made from here on changes it, so the first
            // look reads it (taken after, it would hide a commit made while this list decodes).
            let dataVersion = try sqliteCall {
                try retryingWhileBusy { try connected().integerPragma("data_version") }
            }
            let (version, rows) = try sqliteCall {
                try retryingWhileBusy { try read(connected()) }
            }
            let decoded = await Self.decode(rows)
            if let problem = decoded.problems.first {
                throw .brokenRule(path: path, reason: "row \(problem.row): \(problem.reason)")
            }
            // Nothing was written before this point: a refused file is left as it was.
            try sqliteCall {
                try retryingWhileBusy {
                    // Opening takes no write lock unless it must migrate: trimming the change log
                    // waits for this process's writes (another may hold the write lock now).
                    try migrate(connected(), from: version)
                    // Two rows with one rank (set by hand) would make a placement between them
                    // land elsewhere: give every row its own rank, in the order shown.
                    if try integer(
                        connected(),
                        "SELECT count(*) FROM (SELECT rank FROM elements GROUP BY rank HAVING count(*) > 1)"
                    ) ?? 0 > 0 {
                        try connected().writing { try renumber() }
                    }
                }
            }
            seenDataVersion = dataVersion
            history.readThrough(rows.through, token: rows.throughToken)
            return (EditableList(decoded.elements), rows.through)
        } catch {
            letGo()
            throw error
        }
    }

    /// Connects to the file at the path, with its write-ahead log and index attached, and
    /// records the three files' identities, all under the folder lock (see ``makingDatabase``).
    ///
    /// SQLite attaches the log and the index, found by the path, at the first read. Done outside
    /// the lock, a file replaced or made again meanwhile could give this connection to the old
    /// file the new file's log; recorded later (after a long list decodes), the identities could
    /// be the new file's, and edits would go on to the old one unseen. A new file is switched to
    /// WAL here too, so that its log is made under the lock.
    private func attach(first leaving: () -> Void = {}) throws(PersistenceError) {
        let letGoFirst = {
            leaving()
            self.letGo()
        }
        let attached = try makingDatabase(at: url, for: .opening, first: letGoFirst) {
            () throws(PersistenceError) -> (SQLiteConnection, FileIdentity?, [Companion]) in
            try checkFileBeforeOpening()
            // The file there before connecting is the one connected to, unless it was replaced
            // in between; then the next look reopens (as it does if it is gone right after).
            let before = FileIdentity(path: path)
            return try sqliteCall {
                let connection = try SQLiteConnection(path: path, busyWait: busyWait)
                let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int
                try retryingWhileBusy {
                    if size == 0 { _ = try strings(connection, "PRAGMA journal_mode = WAL") }
                    _ = try connection.integerPragma("schema_version")
                }
                let identity = before ?? FileIdentity(path: path)
                if let identity { LogOwner.record(identity, forLogOf: path) }
                return (
                    connection, identity,
                    companionSuffixes.compactMap { suffix in
                        FileIdentity(path: path + suffix).map {
                            Companion(path: path + suffix, identity: $0)
                        }
                    }
                )
            }
        }
        (connection, identity, companions) = attached
    }

    /// Moves this database's file, closed, to `target` unless a file is there, under the
    /// folder lock (see ``makingDatabase``), on the database's own queue.
    ///
    /// - Throws: `taken` if a file is there.
    func move(to target: URL, unlessTaken taken: PersistenceError) throws(PersistenceError) {
        try makingDatabase(at: target, for: .writing) { () throws(PersistenceError) in
            guard !FileManager.default.fileExists(atPath: target.path) else { throw taken }
            do {
                try FileManager.default.moveItem(at: url, to: target)
            } catch {
                throw .unwritable(path: target.path, reason: error.localizedDescription)
            }
        }
    }

    /// Drops the connection (closing it as usual) and what it recorded of its files.
    private func letGo() {
        connection = nil
        companions = []
    }

    /// Whether the file at the path is no longer the one open.
    ///
    /// It was deleted, or replaced by another (a restored backup, a file moved over it); SQLite
    /// goes on writing to the open one, which nobody would ever read again.
    func fileWasReplaced() -> Bool {
        connection != nil && (identity == nil || FileIdentity(path: path) != identity)
    }

    /// Why a write failed when another program kept the database locked past the busy wait.
    private nonisolated var busyReason: String {
        "another program kept the database locked for longer than \(busyWait)"
    }

    /// Whether `error` is a write's that failed only because another program kept the database
    /// locked: it may work later.
    nonisolated func isBusy(_ error: PersistenceError) -> Bool {
        error == .unwritable(path: path, reason: busyReason)
    }

    private func checkStillAtPath() throws(PersistenceError) {
        if fileWasReplaced() {
            throw .unwritable(
                path: path, reason: "the file was deleted or replaced by another program")
        }
    }

    /// Whether the file open was deleted or replaced, or a reopening failed (a file that is not
    /// a list was put there): each look tries again, so putting a good file back recovers.
    func needsReopening() -> Bool {
        fileWasReplaced() || (connection == nil && identity != nil)
    }

    /// Opens the file now at the path, after the one open was deleted or replaced.
    ///
    /// - Parameter elements: The list this process holds: written to the new database if there
    ///   is none at the path (the deleted file's list lives on).
    /// - Returns: The list in the file now, and how it came to be there.
    func reopen(keeping elements: [Element]) async throws(PersistenceError) -> (
        list: EditableList<Element>, through: Int64, outcome: Reopening
    ) {
        let opened = try await open(leavingReplacedFile: true)
        guard opened.list.count == 0 else { return (opened.list, opened.through, .replaced) }
        // Deleted, or replaced by an empty database (another process that had the deleted one
        // open may be making it again right now): filled with this list, unless another process
        // filled it first; then its list is read.
        do throws(PersistenceError) {
            if let through = try fillIfEmpty(with: elements, logged: true) {
                return (EditableList(elements), through, .madeAgain)
            }
            let theirs = try await open()
            return (theirs.list, theirs.through, .madeAgainElsewhere)
        } catch {
            // Not open, so the next look tries the whole reopening again.
            letGo()
            throw error
        }
    }

    /// What a reopening found at the path.
    enum Reopening {
        /// No list (the file was deleted): it was made again with this process's list.
        case madeAgain
        /// Another process that had the deleted file open made it again first, with its list.
        case madeAgainElsewhere
        /// Another file with a list was put there.
        case replaced
    }

    /// Reads the whole list without writing anything to the file (no migration, no change of
    /// journal mode): for copying a list out of a database, which may be read-only.
    ///
    /// - Throws: As ``open()``; a database of an older schema is read as it is.
    func readOnly() async throws(PersistenceError) -> [Element] {
        try checkFileBeforeOpening()
        guard FileManager.default.fileExists(atPath: path) else {
            throw .unreadable(path: path, reason: "there is no such file")
        }
        let reader: SQLiteConnection
        do {
            reader = try SQLiteConnection(path: path, busyWait: busyWait, readOnly: true)
        } catch {
            throw .unreadable(path: path, reason: error.message)
        }
        let (_, rows) = try sqliteCall { try read(reader) }
        let decoded = await Self.decode(rows)
        if let problem = decoded.problems.first {
            throw .brokenRule(path: path, reason: "row \(problem.row): \(problem.reason)")
        }
        return decoded.elements
    }

    /// Runs `body`, turning SQLite's errors into the ones a user reads.
    private func sqliteCall<Result>(_ body: () throws -> Result) throws(PersistenceError) -> Result
    {
        do {
            return try body()
        } catch let error as PersistenceError {
            throw error
        } catch let error as SQLiteError {
            if error.isDamaged { throw .corrupt(path: path, reason: error.message) }
            if error.isReadOnly { throw .unwritable(path: path, reason: error.message) }
            throw .unreadable(path: path, reason: error.message)
        } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
    }

    /// Checks what the database is, and reads its rows' text (none for a new database).
    ///
    /// One read transaction, so the version and the tables are seen as of one moment (another
    /// process may be creating them right now).
    private func read(_ connection: SQLiteConnection) throws -> (version: Int64, rows: StoredRows) {
        try connection.reading {
            let version = try connection.integerPragma("user_version")
            if version > Self.schemaVersion {
                throw PersistenceError.newerVersion(
                    path: path, found: Int(version), supported: Int(Self.schemaVersion))
            }
            if version == 0 {
                try checkEmpty(connection)
                return (version, StoredRows())
            }
            try checkKind(connection)
            try checkTables(connection)
            return (version, try readRows(connection))
        }
    }

    /// Lets go of the connection; the last connection to close folds the write-ahead log into
    /// the database file.
    ///
    /// If the file was deleted or replaced meanwhile, its log is left out of the file at the path
    /// now (see ``leaveReplacedFile()``).
    func close() {
        if fileWasReplaced() { leaveReplacedFile() }
        letGo()
        identity = nil
    }

    /// Lets go of a file no longer at the path, so that nothing of it reaches the file there now.
    ///
    /// SQLite names the write-ahead log and its shared-memory index after the path, not the file.
    /// Another process may have made a new file at the path already, with those two files its
    /// own: folding the old file's log then would copy the new file's commits into the old file
    /// and empty the log, and the new file would lose them. And if nobody has, the old file's log
    /// is still there, and the next file at the path would read the old file's commits as its
    /// own.
    ///
    /// So the two files are dealt with under a lock on the folder that every process takes for
    /// this. If they are still the ones the connection opened, no new file has its own yet: the
    /// old file's log is folded into it (a file moved elsewhere keeps its last commits), and the
    /// two are taken away, so the new file starts with its own. If they are not, another process
    /// got here first, and they are left alone. Either way the connection then closes without a
    /// checkpoint (SQLite skips it for a file moved or deleted; this says so for every platform).
    /// A process that still has the old file open keeps its open copies of the two, and nothing
    /// it does reaches the new file.
    private func leaveReplacedFile() {
        // Not locked in time (another process stopped while holding it): left as they are.
        if fileWasReplaced() {
            try? withFolderLocked(holding: url, for: .writing, leaveReplacedFileHoldingLock)
        }
        leaveReplacedFileHoldingLock()
    }

    /// ``leaveReplacedFile()``, with the folder lock held already (a reopening holds it from
    /// here until the new file is made, so that no other process makes an empty one between).
    private func leaveReplacedFileHoldingLock() {
        // Taken away before the connection closes: while it has them open, no new file can be
        // given their inode numbers, which would make a new file look like an old one.
        if let connection, fileWasReplaced() {
            let ours = companions.filter { FileIdentity(path: $0.path) == $0.identity }
            if !ours.isEmpty {
                // Still the old file's: its log is folded into it first (a file moved away, not
                // deleted, keeps its last commits), which nobody else's can be yet.
                _ = try? strings(connection, "PRAGMA wal_checkpoint(TRUNCATE)")
                for companion in ours { unlink(companion.path) }
            }
        }
        connection?.skipsCheckpointOnClose()
        letGo()
    }

    /// Refuses a folder, an unreadable file, or a file that is not an SQLite database, without
    /// letting SQLite open it.
    private func checkFileBeforeOpening() throws(PersistenceError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return }
        if isFolder.boolValue { throw .unreadable(path: path, reason: "it is a folder") }
        let header: Data
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            header = try handle.read(upToCount: 16) ?? Data()
        } catch {
            throw .unreadable(path: path, reason: error.localizedDescription)
        }
        if !header.isEmpty, header != Data("SQLite format 3\0".utf8) {
            throw .corrupt(path: path, reason: "it is not an SQLite database")
        }
    }

    /// Refuses an SQLite database of some other program's (tables, but no schema version).
    private func checkEmpty(_ connection: SQLiteConnection) throws {
        let tables = try strings(
            connection, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        guard tables.isEmpty else {
            throw PersistenceError.corrupt(
                path: path,
                reason:
                    "it is an SQLite database, but not a list of \(Element.pluralNoun) (it has the tables \(tables.joined(separator: ", ")))"
            )
        }
    }

    /// Refuses a list of another kind of element.
    private func checkKind(_ connection: SQLiteConnection) throws {
        let kind = try strings(connection, "SELECT value FROM meta WHERE key = 'kind'").first
        guard kind == Element.pluralNoun else {
            throw PersistenceError.corrupt(
                path: path,
                reason:
                    "it holds a list of \(kind ?? "unknown things"), not of \(Element.pluralNoun)")
        }
    }

    /// Refuses a list whose tables were changed (by hand, or by another program) so that this code
    /// could not write to them: found when opening, not at every edit's write.
    private func checkTables(_ connection: SQLiteConnection) throws {
        let path = self.path
        let refuse = { (problem: String) in
            PersistenceError.corrupt(
                path: path, reason: "it is a list of \(Element.pluralNoun), but \(problem)")
        }
        let elements = try columns(of: "elements", in: connection)
        let changes = try columns(of: "changes", in: connection)
        for (table, found, needed) in [
            ("elements", elements, ["id", "rank"]),
            ("changes", changes, ["seq", "element_id", "origin"]),
        ] {
            if found.isEmpty { throw refuse("its table \(table) is missing") }
            if let missing = needed.first(where: { name in !found.contains { $0.name == name } }) {
                throw refuse("its table \(table) has no column \(missing)")
            }
        }
        // The log's numbers are its row ids: given by SQLite, one more than the largest.
        let key = changes.filter(\.isKeyPart)
        guard key.count == 1, key.first?.name == "seq", key.first?.isInteger == true else {
            throw refuse(
                "its table changes does not number its entries (seq is not its INTEGER PRIMARY KEY)"
            )
        }
        // A column this code does not know, that a new row must fill: every insert would fail.
        for (table, found, known) in [
            ("elements", elements, Set(["id", "rank"] + Element.fields.map(\.name))),
            ("changes", changes, Set(["seq", "element_id", "origin"])),
        ] {
            if let column = found.first(where: { !known.contains($0.name) && $0.mustBeFilled }) {
                throw refuse(
                    "its table \(table) has a column \(column.name) that every row must fill, and this code does not know it"
                )
            }
        }
    }

    /// A table's columns as `PRAGMA table_info` describes them (none if there is no such table).
    private func columns(of table: String, in connection: SQLiteConnection) throws -> [Column] {
        let statement = try connection.statement(
            "SELECT name, upper(type), \"notnull\", dflt_value IS NOT NULL, pk FROM pragma_table_info(?)"
        )
        .bind([.text(table)])
        defer { statement.reset() }
        var columns: [Column] = []
        while try statement.step() {
            let isNotNull = statement.integer(at: 2) != 0
            let hasDefault = statement.integer(at: 3) != 0
            columns.append(
                Column(
                    name: statement.text(at: 0) ?? "",
                    isInteger: statement.text(at: 1) == "INTEGER",
                    isKeyPart: statement.integer(at: 4) > 0,
                    mustBeFilled: isNotNull && !hasDefault))
        }
        return columns
    }

    /// What opening needs to know of a column.
    private struct Column {
        var name: String
        var isInteger: Bool
        /// Part of the table's primary key.
        var isKeyPart: Bool
        var mustBeFilled: Bool
    }

    /// Brings the schema from `version` to the current one, and gives every described field a
    /// column.
    ///
    /// Several processes may open a new database at once: the version is read again inside the
    /// write transaction, so only the first creates the tables, and the others find them made.
    private func migrate(_ connection: SQLiteConnection, from version: Int64) throws {
        // WAL: readers never wait for a writer, and a commit is one append to the log. It is a
        // property of the file, set outside any transaction.
        try retryingWhileBusy { _ = try strings(connection, "PRAGMA journal_mode = WAL") }
        try connection.execute("PRAGMA synchronous = FULL")
        // Nothing to do (the usual case): no write transaction, so opening does not wait for
        // another process's write lock.
        let columns = try Set(strings(connection, "SELECT name FROM pragma_table_info('elements')"))
        if version == Self.schemaVersion, Element.fields.allSatisfy({ columns.contains($0.name) }) {
            return
        }
        try connection.writing {
            let version = try connection.integerPragma("user_version")
            if version > Self.schemaVersion {
                throw PersistenceError.newerVersion(
                    path: path, found: Int(version), supported: Int(Self.schemaVersion))
            }
            if version < 1 {
                try checkEmpty(connection)
                try connection.execute(
                    """
                    CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                    CREATE TABLE elements (id TEXT PRIMARY KEY NOT NULL, rank INTEGER NOT NULL);
                    CREATE INDEX elements_by_rank ON elements (rank);
                    CREATE TABLE changes (
                        seq INTEGER PRIMARY KEY,
                        element_id TEXT NOT NULL,
                        origin TEXT NOT NULL);
                    """)
                try connection.statement("INSERT INTO meta (key, value) VALUES ('kind', ?)")
                    .bind(.text(Element.pluralNoun)).run()
            }
            // Later versions add their steps here, each `if version < N`.
            let columns = try Set(
                strings(connection, "SELECT name FROM pragma_table_info('elements')"))
            for field in Element.fields where !columns.contains(field.name) {
                try connection.execute(
                    "ALTER TABLE elements ADD COLUMN \(Self.quoted(field.name)) TEXT")
            }
            if version < Self.schemaVersion {
                try connection.execute("PRAGMA user_version = \(Self.schemaVersion)")
            }
        }
    }

    /// Runs `body`, again for up to the busy wait while another process holds a lock that
    /// SQLite's own busy wait does not cover (switching the journal mode).
    private func retryingWhileBusy<Result>(_ body: () throws -> Result) throws -> Result {
        let deadline = ContinuousClock.now + busyWait
        while true {
            do {
                return try body()
            } catch let error as SQLiteError where error.isBusy && ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
    }

    // MARK: Writing

    /// Writes one edit in a transaction of its own, durably, with its change log entry.
    ///
    /// A replacement writes only the fields the edit changed, onto the row as it is now: a field
    /// another process changed meanwhile is kept. If the result is not what this process holds
    /// (or would break a rule, in which case the row is left as it is), it is returned.
    ///
    /// - Returns: The element as the database now holds it, when it differs from the edit's; the
    ///   row it was placed after, for an insert or a move (another process may have moved its
    ///   neighbours meanwhile); and the edit's change log entry.
    func write(_ write: RowWrite<Element>) throws(PersistenceError) -> WriteResult<Element> {
        let connection = try connected()
        let token = history.nextToken()
        do {
            // An edit committed to a file no longer at the path would be lost: it waits for the
            // file there now. Looked at after the commit too: replaced meanwhile, the edit is
            // written again, to the new file.
            try checkStillAtPath()
            // Every thousandth write trims the change log in its own transaction, where the write
            // lock is already held: a trimming never waits for, or fails on, another program.
            let trims = writesSincePruning + 1 >= 1_000
            let merged = try connection.writing { () throws -> WriteResult<Element> in
                var result = try apply(write, in: connection)
                try connection.statement("INSERT INTO changes (element_id, origin) VALUES (?, ?)")
                    .bind(.text(write.change.element.id.description), .text(token)).run()
                result.entry = connection.lastInsertedRow
                if trims { try prune(connection) }
                return result
            }
            try checkStillAtPath()
            history.wrote(merged.entry, token: token)
            writesSincePruning = trims ? 0 : writesSincePruning + 1
            return merged
        } catch let error as PersistenceError {
            throw error
        } catch let error as SQLiteError {
            throw .unwritable(
                path: path,
                reason: error.isBusy
                    ? busyReason
                    : error.message)
        } catch {
            throw .unwritable(path: path, reason: "\(error)")
        }
    }

    /// Writes `elements` as the list of a new database, in one transaction, unless it has rows
    /// or log entries already (another process filled it first).
    ///
    /// - Parameter logged: Whether to tell processes that opened the empty file meanwhile: the
    ///   fill writes one log entry, numbered 2, leaving 1 out. Such a process (having seen none)
    ///   finds the log starting past the entry after its last, and reads the whole list, as a
    ///   process further behind than the log does; the fill costs one entry, not one per row.
    /// - Returns: The last log entry written (0 without one), or `nil` if the database was not
    ///   empty.
    func fillIfEmpty(with elements: [Element], logged: Bool) throws(PersistenceError) -> Int64? {
        let connection = try connected()
        do {
            let token = history.nextToken()
            let filled = try connection.writing { () throws -> Bool in
                let rows = try integer(connection, "SELECT count(*) FROM elements") ?? 0
                let entries = try integer(connection, "SELECT count(*) FROM changes") ?? 0
                guard rows == 0, entries == 0 else { return false }
                var rank: Int64 = 0
                for element in elements {
                    rank += Self.rankGap
                    try connection.statement(sql.insert)
                        .bind(
                            [.text(element.id.description), .integer(rank)] + fieldValues(element)
                        )
                        .run()
                }
                if logged, let last = elements.last {
                    try connection.statement(
                        "INSERT INTO changes (seq, element_id, origin) VALUES (2, ?, ?)"
                    )
                    .bind(.text(last.id.description), .text(token)).run()
                }
                return true
            }
            guard filled else { return nil }
            guard logged, !elements.isEmpty else { return 0 }
            history.readThrough(2, token: token)
            return 2
        } catch let error as SQLiteError where error.isBusy {
            throw .unwritable(
                path: path,
                reason: busyReason)
        } catch {
            throw .unwritable(path: path, reason: "\(error)")
        }
    }

    private func apply(_ write: RowWrite<Element>, in connection: SQLiteConnection) throws
        -> WriteResult<Element>
    {
        switch write.change {
        case .inserted(let element, _):
            let rank = try rank(
                placing: element.id, after: write.predecessor, before: write.successor)
            try connection.statement(sql.insert)
                .bind([.text(element.id.description), .integer(rank)] + fieldValues(element)).run()
            return WriteResult(predecessor: .some(try predecessor(ofRank: rank, in: connection)))
        case .removed(let element, _):
            try connection.statement("DELETE FROM elements WHERE id = ?")
                .bind(.text(element.id.description)).run()
        case .moved(let element, _, _):
            let rank = try rank(
                placing: element.id, after: write.predecessor, before: write.successor)
            try connection.statement("UPDATE elements SET rank = ? WHERE id = ?")
                .bind(.integer(rank), .text(element.id.description)).run()
            return WriteResult(predecessor: .some(try predecessor(ofRank: rank, in: connection)))
        case .replaced(let old, let new, _):
            let stored: Element
            switch try storedElement(new.id, in: connection) {
            case .missing:
                // Deleted by another process meanwhile: the deletion stands.
                return WriteResult()
            case .unreadable:
                // A row this code cannot read (written by hand) is replaced by the edit's.
                try writeFields(of: new, in: connection)
                return WriteResult()
            case .found(let element):
                stored = element
            }
            let result = stored.applying(editFrom: old, to: new)
            guard result.problems.isEmpty else { return WriteResult(merged: stored) }
            try writeFields(of: result, in: connection)
            return WriteResult(merged: result == new ? nil : result)
        }
        return WriteResult()
    }

    /// The id of the row just before `rank`; `nil` at the front.
    private func predecessor(ofRank rank: Int64, in connection: SQLiteConnection) throws
        -> Element.ID?
    {
        try strings(
            connection, "SELECT id FROM elements WHERE rank < ? ORDER BY rank DESC LIMIT 1",
            .integer(rank)
        ).first.flatMap(Element.ID.init)
    }

    private func writeFields(of element: Element, in connection: SQLiteConnection) throws {
        try connection.statement(sql.update)
            .bind(fieldValues(element) + [.text(element.id.description)]).run()
    }

    private func fieldValues(_ element: Element) -> [SQLiteValue] {
        Element.fields.map { .text($0.text(in: element)) }
    }

    /// The rank that puts `id` right after `predecessor` (or right before `successor`, if the
    /// predecessor is not in the database; at the front if there is none; at the end if neither
    /// neighbour is there any more).
    private func rank(
        placing id: Element.ID, after predecessor: Element.ID?, before successor: Element.ID?
    )
        throws -> Int64
    {
        for _ in 0..<2 {
            if let rank = try placement(of: id, after: predecessor, before: successor) {
                return rank
            }
            try renumber()
        }
        throw PersistenceError.unwritable(
            path: path, reason: "no room for a rank after renumbering")
    }

    /// The rank between the neighbours, or `nil` if they have no room between them.
    private func placement(
        of id: Element.ID, after predecessor: Element.ID?, before successor: Element.ID?
    ) throws -> Int64? {
        let connection = try connected()
        let key = SQLiteValue.text(id.description)
        let rankOf = "SELECT rank FROM elements WHERE id = ?"
        if let predecessor,
            let low = try integer(connection, rankOf, .text(predecessor.description))
        {
            let high = try integer(
                connection,
                "SELECT rank FROM elements WHERE rank > ? AND id != ? ORDER BY rank LIMIT 1",
                .integer(low), key)
            return Self.between(low, high)
        }
        if let successor, let high = try integer(connection, rankOf, .text(successor.description)) {
            let low = try integer(
                connection,
                "SELECT rank FROM elements WHERE rank < ? AND id != ? ORDER BY rank DESC LIMIT 1",
                .integer(high), key)
            return Self.between(low, high)
        }
        if predecessor == nil {
            let first = try integer(
                connection, "SELECT rank FROM elements WHERE id != ? ORDER BY rank LIMIT 1", key)
            return Self.between(nil, first)
        }
        let last = try integer(
            connection, "SELECT rank FROM elements WHERE id != ? ORDER BY rank DESC LIMIT 1", key)
        return Self.between(last, nil)
    }

    /// A rank strictly between `low` and `high` (either may be open), or `nil` if there is none.
    static func between(_ low: Int64?, _ high: Int64?) -> Int64? {
        switch (low, high) {
        case (nil, nil): return 0
        case (let low?, nil):
            let (rank, overflow) = low.addingReportingOverflow(rankGap)
            return overflow ? nil : rank
        case (nil, let high?):
            let (rank, overflow) = high.subtractingReportingOverflow(rankGap)
            return overflow ? nil : rank
        case (let low?, let high?):
            // low < high always; halving the distance cannot overflow.
            let distance = high / 2 - low / 2 + (high % 2 - low % 2) / 2
            return distance >= 1 && low + distance < high ? low + distance : nil
        }
    }

    /// Gives every row a fresh rank, `rankGap` apart, in list order: O(*n*), and rare (only after
    /// about 32 inserts in a row between the same two elements).
    private func renumber() throws {
        let connection = try connected()
        let ids = try strings(connection, "SELECT id FROM elements ORDER BY rank, id")
        let start = -Int64(ids.count / 2) * Self.rankGap
        for (position, id) in ids.enumerated() {
            try connection.statement("UPDATE elements SET rank = ? WHERE id = ?")
                .bind(.integer(start + Int64(position) * Self.rankGap), .text(id)).run()
        }
    }

    /// Drops change log entries older than the last ``keptChanges``.
    private func prune(_ connection: SQLiteConnection) throws {
        try connection.statement(
            "DELETE FROM changes WHERE seq <= (SELECT coalesce(max(seq), 0) FROM changes) - ?"
        ).bind(.integer(Self.keptChanges)).run()
    }

    // MARK: Reading what others wrote

    /// What other processes committed after log entry `seen`, or `nil` if nothing.
    ///
    /// - Parameter force: Look in the log even if SQLite says no other connection committed since
    ///   the last look (after a look whose result was not used).
    func changes(after seen: Int64, force: Bool = false, whole: Bool = false)
        async throws(PersistenceError)
        -> RemoteChanges<Element>?
    {
        let connection = try connected()
        let found: Found?
        do {
            let version = try connection.integerPragma("data_version")
            guard force || whole || version != seenDataVersion else { return nil }
            seenDataVersion = version
            found = try connection.reading { () throws -> Found? in
                let newest =
                    try integer(connection, "SELECT coalesce(max(seq), 0) FROM changes") ?? 0
                let oldest =
                    try integer(connection, "SELECT coalesce(min(seq), 0) FROM changes") ?? 0
                // Numbers that went backwards, or entries this process knows that are gone: the
                // file was restored from an older copy. Or this process is further behind than
                // the log reaches.
                let historyKept = try holdsKnownEntries(from: oldest, in: connection)
                if whole || newest < seen || oldest > seen + 1 || !historyKept {
                    let rows = try readRows(connection)
                    history.readThrough(newest, token: rows.throughToken)
                    return .whole(rows, through: newest)
                }
                guard newest > seen else { return nil }
                let changes = try changedRows(after: seen, through: newest, in: connection)
                history.readThrough(newest, token: try token(of: newest, in: connection))
                return .rows(changes)
            }
        } catch let error as PersistenceError {
            throw error
        } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
        switch found {
        case nil: return nil
        case .rows(let changes): return changes
        case .whole(let rows, let through):
            let decoded = await Self.decode(rows)
            return .whole(
                decoded.elements, through: through, problems: decoded.problems.map { $0.reason })
        }
    }

    /// What a look in the log found: the changed rows, or every row's text, still to decode.
    private enum Found {
        case rows(RemoteChanges<Element>)
        case whole(StoredRows, through: Int64)
    }

    /// Whether the log still holds every entry this connection knows of (those it has not
    /// trimmed), each with its token.
    private func holdsKnownEntries(from oldest: Int64, in connection: SQLiteConnection) throws
        -> Bool
    {
        guard !history.changed else { return false }
        for (entry, token) in history.known where entry >= oldest {
            guard try self.token(of: entry, in: connection) == token else { return false }
        }
        return true
    }

    /// The token of log entry `entry`, if there is one.
    private func token(of entry: Int64, in connection: SQLiteConnection) throws -> String? {
        try strings(connection, "SELECT origin FROM changes WHERE seq = ?", .integer(entry)).first
    }

    private func changedRows(
        after seen: Int64, through newest: Int64, in connection: SQLiteConnection
    )
        throws -> RemoteChanges<Element>
    {
        // This process's own entries too: a row it placed after a neighbour that another process
        // moved meanwhile must follow that neighbour here as well (taking in an unchanged row
        // changes nothing).
        let keys = try strings(
            connection,
            "SELECT DISTINCT element_id FROM changes WHERE seq > ? AND seq <= ?",
            .integer(seen), .integer(newest))
        var rows: [(rank: Int64, row: RemoteRow<Element>)] = []
        var problems: [String] = []
        for key in keys {
            guard let id = Element.ID(key) else { continue }
            switch try storedElement(id, in: connection) {
            case .missing:
                rows.append((.min, RemoteRow(id: id, element: nil, predecessor: nil)))
            case .unreadable(let problem):
                problems.append(problem)
            case .found(let element):
                let rank =
                    try integer(connection, "SELECT rank FROM elements WHERE id = ?", .text(key))
                    ?? 0
                let before = try strings(
                    connection, "SELECT id FROM elements WHERE rank < ? ORDER BY rank DESC LIMIT 1",
                    .integer(rank)
                ).first
                rows.append(
                    (
                        rank,
                        RemoteRow(
                            id: id, element: element, predecessor: before.flatMap(Element.ID.init))
                    ))
            }
        }
        rows.sort { $0.rank < $1.rank }
        return .rows(rows.map(\.row), through: newest, problems: problems)
    }

    // MARK: Rows

    private enum Stored {
        case missing
        case unreadable(String)
        case found(Element)
    }

    private func storedElement(_ id: Element.ID, in connection: SQLiteConnection) throws -> Stored {
        let statement = try connection.statement(sql.select)
            .bind(.text(id.description))
        defer { statement.reset() }
        guard try statement.step() else { return .missing }
        var problem: String?
        let texts = Element.fields.indices.map { statement.text(at: Int32($0 + 1)) }
        if let element = Self.element(
            key: statement.text(at: 0) ?? "", texts: texts, from: 0,
            fields: ContiguousArray(Element.fields), problem: &problem)
        {
            return .found(element)
        }
        return .unreadable(problem ?? "a row that cannot be read")
    }

    /// The text of every row, in list order, as stored: read in one go, so that decoding can be
    /// spread over every core.
    struct StoredRows: Sendable {
        /// Each row's id.
        var ids: [String] = []
        /// Each row's field texts, `Element.fields.count` per row, in field order; `nil` for a
        /// field the row does not have (it keeps its default).
        var texts: [String?] = []
        /// The last change log entry the rows include.
        var through: Int64 = 0
        /// That entry's token (`nil` if the log is empty).
        var throughToken: String?
    }

    /// Every row's text, in list order, with the last change log entry.
    private func readRows(_ connection: SQLiteConnection) throws -> StoredRows {
        let existing = Set(
            try strings(connection, "SELECT name FROM pragma_table_info('elements')"))
        let fields = Element.fields
        // A described field without a column yet (a database made before it) is selected as NULL.
        let columns = fields.map { existing.contains($0.name) ? Self.quoted($0.name) : "NULL" }
        let statement = try connection.statement(
            "SELECT id, \(columns.joined(separator: ", ")) FROM elements ORDER BY rank, id")
        defer { statement.reset() }
        var rows = StoredRows()
        while try statement.step() {
            rows.ids.append(statement.text(at: 0) ?? "")
            for column in fields.indices {
                rows.texts.append(statement.text(at: Int32(column + 1)))
            }
        }
        rows.through = try integer(connection, "SELECT coalesce(max(seq), 0) FROM changes") ?? 0
        rows.throughToken = try token(of: rows.through, in: connection)
        return rows
    }

    /// The elements the rows hold, decoded and checked on every core, with the rows that could
    /// not be read or break a rule (numbered from 1), in order.
    private static func decode(_ rows: StoredRows) async -> (
        elements: [Element], problems: [(row: Int, reason: String)]
    ) {
        let count = rows.ids.count
        let chunks = max(1, min(64, count / 20_000))
        /// The elements of the rows in `range`, and the problems of those that are not.
        @Sendable func decoded(_ range: Range<Int>) -> ([Element], [(row: Int, reason: String)]) {
            let fields = ContiguousArray(Element.fields)
            var elements: [Element] = []
            elements.reserveCapacity(range.count)
            var problems: [(row: Int, reason: String)] = []
            var problem: String?
            for row in range {
                if let element = element(
                    key: rows.ids[row], texts: rows.texts, from: row * fields.count,
                    fields: fields, problem: &problem)
                {
                    elements.append(element)
                } else {
                    problems.append((row + 1, problem ?? "it cannot be read"))
                }
            }
            return (elements, problems)
        }
        // A short list is decoded here, on the database's queue: no wait for the cooperative
        // pool, which other work may be keeping busy.
        if chunks == 1 { return decoded(0..<count) }
        return await withTaskGroup(of: (Int, [Element], [(row: Int, reason: String)]).self) {
            group in
            for chunk in 0..<chunks {
                let range = (count * chunk / chunks)..<(count * (chunk + 1) / chunks)
                group.addTask {
                    let (elements, problems) = decoded(range)
                    return (chunk, elements, problems)
                }
            }
            var parts = [([Element], [(row: Int, reason: String)])](
                repeating: ([], []), count: chunks)
            for await (chunk, elements, problems) in group { parts[chunk] = (elements, problems) }
            var elements: [Element] = []
            elements.reserveCapacity(count)
            for part in parts { elements += part.0 }
            return (elements, parts.flatMap(\.1))
        }
    }

    /// The element a row's id and field texts describe (a `nil` text keeps the field's default).
    ///
    /// - Parameters:
    ///   - texts: Every row's field texts; this row's are the `fields.count` from `start`. (Not
    ///     a slice: this runs a million times, unspecialized, and a slice costs a metadata lookup
    ///     and a retain each time.)
    ///   - problem: Set to why the row is not an element, when it is not.
    private static func element(
        key: String, texts: [String?], from start: Int,
        fields: ContiguousArray<ElementField<Element>>, problem: inout String?
    ) -> Element? {
        // Written exactly as this code writes ids, or every later edit, which finds its row by
        // that text, would miss it (a lower-case UUID, say).
        guard let id = Element.ID(key), id.description == key else {
            problem = "its id “\(key)” is not the id of \(article) \(Element.noun), as written here"
            return nil
        }
        var element = Element(blankWithID: id)
        // Indices, not `zip`: this runs a million times, unspecialized, and a generic iterator
        // costs a metadata lookup per step.
        // Each field borrowed through a span, not copied out of the array: a copy retains and
        // releases every closure the field holds, a million times over.
        let borrowed = fields.span
        for index in borrowed.indices {
            guard let text = texts[start + index] else { continue }
            if let broken = borrowed[index].set(text, in: &element) {
                problem = "\(Element.noun) \(key), field “\(borrowed[index].name)”: \(broken)"
                return nil
            }
        }
        if let broken = element.problems.first {
            problem = "\(Element.noun) \(key): \(broken)"
            return nil
        }
        return element
    }

    private static var article: String {
        "aeiou".contains(Element.noun.first ?? "x") ? "an" : "a"
    }

    // MARK: Helpers

    private func connected() throws(PersistenceError) -> SQLiteConnection {
        guard let connection else {
            throw .unwritable(path: path, reason: "the database is closed")
        }
        return connection
    }

    private func strings(_ connection: SQLiteConnection, _ sql: String, _ values: SQLiteValue...)
        throws -> [String]
    {
        let statement = try connection.statement(sql).bind(values)
        defer { statement.reset() }
        var result: [String] = []
        while try statement.step() { result.append(statement.text(at: 0) ?? "") }
        return result
    }

    private func integer(_ connection: SQLiteConnection, _ sql: String, _ values: SQLiteValue...)
        throws -> Int64?
    {
        let statement = try connection.statement(sql).bind(values)
        defer { statement.reset() }
        return try statement.step() ? statement.integer(at: 0) : nil
    }

    /// `name` as an SQL identifier.
    private static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// A write-ahead log or index file, as it was when a connection attached it.
struct Companion {
    var path: String
    var identity: FileIdentity
}

/// A file's device and inode: which file a path names now.
struct FileIdentity: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64

    /// The identity of the file at `path` (a link itself, not what it names); `nil` if there is
    /// none.
    ///
    /// One `lstat`: every write asks it twice.
    init?(path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}
