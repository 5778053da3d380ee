public import Foundation
import MVCElements
public import MVCListStore
public import MVCObservation
import MVCTracing

/// Keeps a store's list in an SQLite database (the ``/MVCListStore/ListPersistence`` port).
///
/// One worker, one thing at a time, writes each edit in a transaction of its own, in order
/// (``saveStatus`` is `.pending` until all are in; a failed write stays queued, and is tried
/// again), merged with the stored row by ``/MVCListStore/ElementMerge`` when another program
/// changed it; and every poll interval asks SQLite whether another connection committed, then
/// hands the store only the rows and tombstones changed after the last change it has. Deleting,
/// renaming or overwriting the open database, or giving it a second name, is out of SQLite's
/// contract: not detected.
@MainActor
public final class SQLitePersistence<Element: SQLiteListElement>: ListPersistence {
    /// Where saving stands: `.pending` while edits wait to be written.
    public var saveStatus: ReadOnlyProperty<SaveStatus> { worker.saveStatus }
    /// Whether closing has begun: edits made from then on are not taken.
    public var isClosing: Bool { worker.isClosing }
    /// The database file the list is kept in.
    public var url: URL { worker.database.url }

    private let worker: RowWorker<ListDatabase<Element>>
    private var poller: Task<Void, Never>?

    init(database: ListDatabase<Element>, tracer: HopTracer) {
        worker = RowWorker(database: database, tracer: tracer)
    }

    isolated deinit { poller?.cancel() }

    /// Queues the row write for `change`; the worker writes it after those before it.
    ///
    /// Once closing has begun an edit is not taken (edits cannot hold closing open), and said.
    public func listChanged(_ elements: [Element], by change: ListChange<Element>) {
        worker.listChanged(elements, by: change)
    }

    /// Hands `inbox` what other programs commit; it is held weakly.
    public func connect(to inbox: any ListInbox<Element>) {
        worker.inbox = inbox
    }

    /// Returns once every edit made before the call is in the database, however often other
    /// programs commit meanwhile.
    ///
    /// - Throws: The reason of a write that failed, while its edit is not written; the edit stays
    ///   queued and is tried again.
    public func flush() async throws(PersistenceError) {
        try await worker.flush()
    }

    /// Looks for other processes' commits now, and takes them in.
    public func lookForChanges() {
        worker.lookForChanges()
    }

    /// How long an edit waits for another process's write lock before it is refused, unless
    /// told: a commit of another process takes milliseconds, so 5 s is a stuck writer, and the
    /// edit is told as failed while the user still remembers making it.
    public nonisolated static var defaultBusyWait: Duration { .seconds(5) }

    /// How long closing waits for other programs' locks, unless told: a minute, far longer than
    /// an edit's ``defaultBusyWait``, since nothing after closing can save what is queued, and a
    /// program that ends is seldom in a hurry.
    public nonisolated static var defaultClosingPatience: Duration { .seconds(60) }

    /// Writes what is queued, waiting for other programs' locks for up to `patience` in all, then
    /// closes the database; returns leaving no notice, status change or open file behind.
    ///
    /// - Throws: Why edits are in no file, and how many; the file is closed all the same.
    public func close(patience: Duration = defaultClosingPatience) async throws(PersistenceError) {
        try await worker.close(patience: patience)
    }

    /// Starts looking for other processes' commits every `interval` (one pragma when nothing is
    /// new); `nil` looks only when asked.
    func watch(every interval: Duration?, clock: any Clock<Duration>) {
        worker.startedWatching()
        guard let interval else { return }
        // Once looking stops it idles until `deinit` cancels it: cancelled at closing, it would
        // drop the last weak reference, whose side table LeakSanitizer reports as leaked at exit.
        poller = Task { [weak self] in
            while !Task.isCancelled {
                do { try await clock.sleep(for: interval) } catch { return }
                self?.lookForChanges()
            }
        }
    }
}
