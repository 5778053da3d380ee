import MVCElements
public import MVCListStore
public import MVCTracing

extension ListStore where Element: RowListElement {
    /// Opens the list kept in a PostgreSQL table (making the table if there is none), with a
    /// persistence that writes each edit and takes in other clients' commits as they are
    /// notified.
    ///
    /// - Parameters:
    ///   - location: The server and the table.
    ///   - listening: Whether to take in other clients' commits as they happen; without it,
    ///     only when asked (``PostgresPersistence/lookForChanges()``).
    ///   - tracer: Told each hop the store and the persistence make.
    /// - Returns: The store and its persistence; call the persistence's `close()` before exiting.
    /// - Throws: `PersistenceError` naming the location without its password: the server cannot
    ///   be reached or refuses (a password, a database, a permission), or the table holds another
    ///   kind of list; nothing is written to it.
    public static func openTable(
        at location: PostgresLocation, listening: Bool = true, tracer: HopTracer = .disabled
    ) async throws(PersistenceError) -> (
        store: ListStore, persistence: PostgresPersistence<Element>
    ) {
        let table = ListTable<Element>(location: location)
        let (list, problems) = try await table.open()
        if let reason = Element.refusal(problems) {
            await table.close()
            throw .brokenRule(path: location.description, reason: reason)
        }
        let persistence = PostgresPersistence(table: table, tracer: tracer)
        let store = ListStore(list, persistence: persistence, tracer: tracer)
        if listening { persistence.listen() } else { persistence.watchOnlyWhenAsked() }
        return (store, persistence)
    }
}

/// Reads and writes a whole list in a PostgreSQL table in one go: for copying a list between
/// formats.
public enum PostgresListTable<Element: RowListElement> {
    /// The list in the table at `location`.
    ///
    /// - Throws: `PersistenceError`, as `ListStore.openTable(at:)`.
    public static func read(from location: PostgresLocation) async throws(PersistenceError)
        -> [Element]
    {
        let table = ListTable<Element>(location: location)
        let opened:
            Result<
                (list: EditableList<Element>, problems: [(row: Int, reason: String)]),
                PersistenceError
            >
        do throws(PersistenceError) {
            opened = .success(try await table.open(creating: false))
        } catch {
            opened = .failure(error)
        }
        await table.close()
        let (list, problems) = try opened.get()
        if let reason = Element.refusal(problems) {
            throw .brokenRule(path: location.description, reason: reason)
        }
        return list.elements
    }

    /// Makes the table at `location` holding `elements`, in one transaction.
    ///
    /// - Throws: `PersistenceError.unwritable` if a list or table of that name is already there
    ///   (it is never replaced), or the server cannot be reached or refuses.
    public static func write(_ elements: [Element], to location: PostgresLocation)
        async throws(PersistenceError)
    {
        let table = ListTable<Element>(location: location)
        try await table.create(elements)
        await table.close()
    }
}
