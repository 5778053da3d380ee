import Foundation
import MVCElements
public import MVCListStore
public import MVCObservation
import MVCTracing
import Synchronization

/// Keeps a store's list in a PostgreSQL table (the ``/MVCListStore/ListPersistence`` port).
///
/// One worker (the one the SQLite adapter runs too) writes each edit in a transaction of its
/// own, in order, merged with the stored row by ``/MVCListStore/ElementMerge``; an edit counts as
/// saved once its transaction committed. Other clients' commits arrive as notifications on a
/// connection of its own, and each is taken in by reading only the rows and tombstones changed
/// after the last change the store has.
///
/// The network may fail: a write that cannot reach the server stays queued, ``saveStatus`` says
/// so with the reason, and it is tried again with backoff (up to 2 s) until it commits; the
/// listener connects again and looks, which makes up any notification missed meanwhile.
@MainActor
public final class PostgresPersistence<Element: RowListElement>: ListPersistence {
    /// Where saving stands: `.pending` while edits wait to be written.
    public var saveStatus: ReadOnlyProperty<SaveStatus> { worker.saveStatus }
    /// Where the list is kept.
    public nonisolated var location: PostgresLocation { table.location }

    private nonisolated let table: ListTable<Element>
    private let worker: RowWorker<ListTable<Element>>
    private var listener: TableListener?

    init(table: ListTable<Element>, tracer: HopTracer) {
        self.table = table
        worker = RowWorker(database: table, tracer: tracer)
    }

    isolated deinit { listener?.stop() }

    /// Queues the row write for `change`; the worker writes it after those before it.
    public func listChanged(_ elements: [Element], by change: ListChange<Element>) {
        worker.listChanged(elements, by: change)
    }

    /// Hands `inbox` what other clients commit; it is held weakly.
    public func connect(to inbox: any ListInbox<Element>) {
        worker.inbox = inbox
    }

    /// Returns once every edit made before the call is committed.
    ///
    /// - Throws: The reason of a write that failed (the server cannot be reached, say), while
    ///   its edit is not written; the edit stays queued, and is tried again.
    public func flush() async throws(PersistenceError) {
        try await worker.flush()
    }

    /// Looks for other clients' commits now, and takes them in (a notification does this).
    public func lookForChanges() {
        worker.lookForChanges()
    }

    /// How long closing keeps trying an unreachable server, unless told: 10 s, less than SQLite's
    /// minute, since a server that does not answer is seldom back within a minute, while a local
    /// lock is seldom held longer than a commit.
    public static var defaultClosingPatience: Duration { .seconds(10) }

    /// Writes what is queued, trying for up to `patience` while the server cannot be reached,
    /// then lets go of the server; returns leaving no notice, status change or connection.
    ///
    /// - Throws: Why edits were not saved, and how many.
    public func close(patience: Duration = defaultClosingPatience) async throws(PersistenceError) {
        // Kept, not let go: its handler's weak reference to this persistence names the reference
        // table plainly until this goes (LeakSanitizer reports one named only in the header).
        await listener?.stopAndWait()
        try await worker.close(patience: patience)
    }

    /// Listens for other clients' commits from now on.
    func listen() {
        worker.startedWatching()
        let writer = table
        let listener = TableListener(
            location: location, isOwn: { $0 == writer.writer.load(ordering: .relaxed) },
            heard: { [weak self] in Task { @MainActor in self?.lookForChanges() } })
        self.listener = listener
        listener.start()
    }

    /// Looks only when asked, from now on.
    func watchOnlyWhenAsked() { worker.startedWatching() }
}
