public import Foundation
import MVCElements
public import MVCListStore
public import MVCTracing

extension ListStore where Element: SQLiteListElement {
    /// Opens the list kept in the SQLite database at `url` (creating an empty one if there is no
    /// file), with a persistence that writes each edit and takes in other processes' commits.
    ///
    /// - Parameters:
    ///   - url: The database file.
    ///   - busyWait: How long an edit waits for another process's write to end before its write
    ///     fails (and is tried again).
    ///   - pollInterval: How often to ask SQLite whether another process committed; `nil` looks
    ///     only when asked (``SQLitePersistence/lookForChanges()``).
    ///   - clock: The clock the poll interval is measured on.
    ///   - tracer: Told each hop the store and the persistence make.
    /// - Returns: The store and its persistence; call the persistence's `close()` before exiting.
    /// - Throws: `PersistenceError` if the file is not a database of this kind, is of a newer
    ///   schema version, or has a row that breaks the model's rules; nothing is written to it.
    public static func openDatabase(
        at url: URL,
        busyWait: Duration = SQLitePersistence<Element>.defaultBusyWait,
        pollInterval: Duration? = .milliseconds(25),
        clock: any Clock<Duration> = ContinuousClock(),
        tracer: HopTracer = .disabled
    ) async throws(PersistenceError) -> (store: ListStore, persistence: SQLitePersistence<Element>)
    {
        let database = ListDatabase<Element>(url: url, busyWait: busyWait)
        let list = try await database.open()
        let persistence = SQLitePersistence(database: database, tracer: tracer)
        let store = ListStore(list, persistence: persistence, tracer: tracer)
        persistence.watch(every: pollInterval, clock: clock)
        return (store, persistence)
    }
}

/// Reads and writes a whole list as an SQLite database in one go: for converting a list between
/// the two formats.
public enum SQLiteListFile<Element: SQLiteListElement> {
    /// The list in the database at `url`, read without writing to it (it may be read-only).
    ///
    /// - Throws: `PersistenceError`, as `ListStore.openDatabase(at:)`.
    public static func read(from url: URL) async throws(PersistenceError) -> [Element] {
        try await ListDatabase<Element>(url: url).readOnly()
    }

    /// Writes `elements` as a new database at `url`, leaving nothing there if it fails part-way.
    ///
    /// - Throws: `PersistenceError.unwritable` if a file is already there (it is not replaced) or
    ///   the database cannot be written.
    public static func write(_ elements: [Element], to url: URL) async throws(PersistenceError) {
        try await ListDatabase<Element>.create(elements, at: url)
    }
}
