import Foundation
import MVCElements
public import MVCListStore

/// An element a list store can keep in an SQLite database: the ``/MVCListStore/RowListElement`` every
/// database adapter asks.
public typealias SQLiteListElement = RowListElement

/// A list kept in an SQLite database (see `DatabaseSchema`): an actor on a queue of its own whose
/// methods never suspend. Nothing here opens the database's files but SQLite (closing any
/// descriptor of a file drops SQLite's POSIX locks on it).
actor ListDatabase<Element: SQLiteListElement> {
    nonisolated let url: URL
    /// The file's path, links resolved, as errors show it.
    nonisolated let path: String
    /// How long an edit waits for another process's lock before it fails.
    nonisolated let busyWait: Duration
    /// How long a write waits for another process's lock now, and until when (set at closing).
    private(set) var lockWait: Duration
    private(set) var waitingUntil: ContinuousClock.Instant?
    private let executor: QueueExecutor
    private(set) var connection: SQLiteConnection?
    /// Why the file is only read, if it is (a read-only file system, say): each write says it.
    private(set) var readOnlyReason: String?
    /// Where the next look starts: every change up to it is in the store's list.
    var mark = SQLiteMark(through: 0, stamp: nil, dataVersion: -1)
    /// Inserts a row: id, rank, then each described field.
    let insertStatement: String = {
        let columns = ["id", "rank"] + Element.fields.map { DatabaseSchema.quoted($0.name) }
        let values = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        return "INSERT INTO elements (\(columns.joined(separator: ", "))) VALUES (\(values))"
    }()
    /// Reads the row with an id: the id, then each described field.
    let selectStatement =
        "SELECT id, \(Element.fields.map(DatabaseSchema.reading).joined(separator: ", ")) FROM elements WHERE id = ?"
    /// Sets every described field of the row with an id (the id first, then each field).
    let updateStatement: String = {
        let columns = Element.fields.enumerated().map { index, field in
            "\(DatabaseSchema.quoted(field.name)) = ?\(index + 2)"
        }
        return "UPDATE elements SET \(columns.joined(separator: ", ")) WHERE id = ?1"
    }()

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Describes the database at `url`; nothing is opened yet.
    init(url: URL, busyWait: Duration = SQLitePersistence<Element>.defaultBusyWait) {
        // Past SQLite's limit, `url` itself, which SQLite then refuses to open.
        self.url = SymbolicLinks.target(of: url, hops: SymbolicLinks.sqliteHops) ?? url
        path = self.url.path
        self.busyWait = busyWait
        lockWait = busyWait
        executor = QueueExecutor(label: "MVCSQLiteStore.\(url.lastPathComponent)")
    }

    /// Opens the database (creating it if there is no file) and reads the whole list.
    func open() throws(PersistenceError) -> EditableList<Element> {
        if let type = fileStatus(path).map({ $0.st_mode & S_IFMT }), type != S_IFREG {
            throw .unreadable(
                path: path,
                reason: type == S_IFDIR
                    ? "it is a folder"
                    : type == S_IFLNK
                        ? "its links lead round in a loop, or through more than \(SymbolicLinks.sqliteHops) links"
                        : "it is not a file but a device, a pipe or a socket")
        }
        let (connection, immutable) = try sqliteCall { try connect(readOnly: false) }
        // Taken before the rows are read: a commit made from here on is seen by the first look.
        let dataVersion = try sqliteCall { try connection.integer("PRAGMA data_version") ?? 0 }
        let read = try read(connection)
        // Read-only: nothing migrated, the list shown, and each edit told why it is not saved.
        if immutable || connection.isReadOnly {
            readOnlyReason =
                isOnReadOnlyDisk
                ? "it is on a read-only file system"
                : isInUnwritableFolder
                    ? "this user may not write its folder \(folder), where SQLite keeps its log"
                    : "SQLite opened it for reading only: this user may not write it"
        } else {
            try sqliteCall {
                try DatabaseSchema.migrate(
                    connection, from: read.version, for: Element.self, busyWait: busyWait,
                    path: path)
            }
        }
        self.connection = connection
        mark = SQLiteMark(through: read.lastChange, stamp: read.stamp, dataVersion: dataVersion)
        return read.list
    }

    /// The list in the file, read without writing anything.
    func readOnly() throws(PersistenceError) -> [Element] {
        try read(try sqliteCall { try connect(readOnly: true) }.0).list.elements
    }

    /// The schema version, the last change and every row, read in one transaction and decoded;
    /// the first row that breaks a rule refuses the file.
    func read(_ connection: SQLiteConnection) throws(PersistenceError)
        -> (version: Int64, lastChange: Int64, stamp: Int64?, list: EditableList<Element>)
    {
        let (version, lastChange, stamp, decoded) = try sqliteCall {
            try connection.reading {
                () throws -> (Int64, Int64, Int64?, StoredRows.Decoded<Element>) in
                let version = try DatabaseSchema.check(connection, for: Element.self, path: path)
                guard version > 0 else { return (version, 0, nil, (EditableList(), [])) }
                let last =
                    version >= 3
                    ? try connection.integer("SELECT last FROM change_counter") ?? 0 : 0
                // A log another program dropped is made again at opening, after this read.
                let hasLog =
                    try connection.integer(
                        "SELECT count(*) FROM sqlite_master WHERE name = 'change_log'") == 1
                let stamp = hasLog ? try DatabaseSchema.stamp(of: last, in: connection) : nil
                return (version, last, stamp, try StoredRows.readAll(connection, for: Element.self))
            }
        }
        if let reason = Element.refusal(decoded.problems) {
            throw .brokenRule(path: path, reason: reason)
        }
        return (version, lastChange, stamp, decoded.list)
    }

    func close() { connection = nil }  // lets go of the connection

    /// Closing began: every write from now on waits for other processes' locks until `patience`
    /// has passed.
    func closingBegan(patience: Duration) {
        lockWait = patience
        waitingUntil = .now + patience
    }

    /// A connection, and whether it is `immutable`: on a read-only disk, or in a folder this user
    /// may not write, the file as it is now (later commits are not seen), unless its log has any.
    private func connect(readOnly: Bool) throws -> (SQLiteConnection, immutable: Bool) {
        let connection = try SQLiteConnection(path: path, busyWait: busyWait, readOnly: readOnly)
        do {
            _ = try connection.integer("PRAGMA user_version")
            return (connection, false)
        } catch {
            guard error.isReadOnly, readOnly || isOnReadOnlyDisk || isInUnwritableFolder else {
                throw error
            }
            if let log = fileStatus(path + "-wal"), log.st_size > 0 {
                throw PersistenceError.unreadable(
                    path: path,
                    reason:
                        "its write-ahead log \(path)-wal holds commits that SQLite cannot read here without the log's index \(path)-shm"
                )
            }
            let reading = try SQLiteConnection(
                path: path, busyWait: busyWait, readOnly: true, immutable: true)
            return (reading, true)
        }
    }

    /// Whether the file is on a file system mounted read-only.
    private var isOnReadOnlyDisk: Bool { access(path, W_OK) != 0 && errno == EROFS }
    /// The folder that holds the file, where SQLite makes the log's files.
    private var folder: String { URL(fileURLWithPath: path).deletingLastPathComponent().path }
    private var isInUnwritableFolder: Bool { access(folder, W_OK) != 0 }

    func connected() throws(PersistenceError) -> SQLiteConnection {
        guard let connection else { throw .unwritable(path: path, reason: "it is closed") }
        return connection
    }

    /// What `body` threw, as a `PersistenceError` naming the file (`writing`: why an edit failed).
    func sqliteCall<Result>(writing: Bool = false, _ body: () throws -> Result)
        throws(PersistenceError) -> Result
    {
        do {
            return try body()
        } catch let error as PersistenceError {
            throw error
        } catch let error as SQLiteError {
            if error.isDamaged { throw .corrupt(path: path, reason: error.message) }
            if writing, error.isBusy { throw locked(for: lockWait) }
            if writing || error.isReadOnly || error.isFull {
                throw .unwritable(path: path, reason: error.message)
            }
            throw .unreadable(path: path, reason: error.message)
        } catch {
            throw writing
                ? .unwritable(path: path, reason: "\(error)")
                : .unreadable(path: path, reason: "\(error)")
        }
    }
}

/// What `lstat` finds at `path` (a link itself, not where it leads), or `nil` if nothing is there.
func fileStatus(_ path: String) -> stat? {
    var status = stat()
    return lstat(path, &status) == 0 ? status : nil
}
