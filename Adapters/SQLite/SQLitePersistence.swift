public import Foundation
import MVCModel
public import MVCObservation
public import MVCStore
import MVCTracing

/// Keeps a store's list in an SQLite database (the ``/MVCStore/ListPersistence`` port).
///
/// One worker, one thing at a time, writes each edit in a transaction of its own, in order
/// (``saveStatus`` is `.pending` until all are in; a failed write stays queued, and is tried
/// again), merged with the stored row by ``/MVCStore/ElementMerge`` when another program changed
/// it; and every poll interval asks SQLite whether another connection committed, then reads only
/// the rows and tombstones changed after the last change the store has, and applies them. Deleting, renaming or overwriting
/// the open database, or giving it a second name, is out of SQLite's contract: not detected.
@MainActor
public final class SQLitePersistence<Element: SQLiteListElement>: ListPersistence {
    /// Where saving stands: `.pending` while edits wait to be written.
    public var saveStatus: ReadOnlyProperty<SaveStatus> { status.readOnly }
    private let status = ObservableProperty<SaveStatus>(.saved)
    /// Whether closing has begun: edits made from then on are not taken.
    public var isClosing: Bool { state.closingPatience != nil }
    /// The database file the list is kept in.
    public var url: URL { database.url }

    let database: ListDatabase<Element>
    weak var store: ListStore<Element>?
    let tracer: HopTracer
    /// What the worker knows and decides; the rest of this class does the I/O.
    var state = WorkerState<RowWrite<Element>>()
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var isWorking = false
    var poller: Task<Void, Never>?

    init(database: ListDatabase<Element>, tracer: HopTracer) {
        self.database = database
        self.tracer = tracer
    }

    isolated deinit { poller?.cancel() }

    // MARK: The calls

    /// Queues the row write for `change`; the worker writes it after those before it.
    ///
    /// Once closing has begun an edit is not taken (edits cannot hold closing open), and said.
    public func listChanged(_ elements: [Element], by change: ListChange<Element>) {
        let write = RowWrite(change: change, in: elements)
        guard state.edited(write) else {
            status.value = .failed(refusal(), attempts: state.notTaken)
            return
        }
        if state.failures == 0 { status.value = .pending }
        startWorking()
    }

    /// Returns once every edit made before the call is in the database, however often other
    /// programs commit meanwhile.
    ///
    /// - Throws: The reason of a write that failed, while its edit is not written; the edit stays
    ///   queued and is tried again.
    public func flush() async throws(PersistenceError) {
        if state.stage == .open { startWorking() }
        let target = state.queued
        while true {
            if case .done = state.flush(target: target) { break }
            await nextTurn()
            // Checked after the wait: an edit a retry wrote meanwhile is in the file.
            if case .failed(let error) = state.flush(target: target) { throw error }
        }
        if state.isClosedForGood, let failure = state.closingFailure { throw failure }
        if state.notTaken > 0 { throw refusal() }
    }

    /// Why the edits made once closing had begun are in no file.
    private func refusal() -> PersistenceError {
        let count = state.notTaken
        return .unwritable(
            path: database.path,
            reason:
                "it was closing or closed; \(count) \(count == 1 ? "edit" : "edits") made since then not saved"
        )
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
        if state.isClosedForGood { return }
        guard state.closingPatience == nil else {
            while !state.isClosedForGood { await nextTurn() }
            try closingOutcome()
            return
        }
        // Set first: every write begun from here on waits as long (see `write(_:)`).
        state.closingBegan(patience: patience)
        await database.waitForLocks(patience, until: .now + patience)
        // Until the worker has nothing left, or a failure.
        while state.closingFailure == nil, isWorking || state.stage == .open {
            if isWorking {
                await nextTurn()
            } else {
                state.closingWrites()
                startWorking()
            }
        }
        state.closed()
        tellHeldNotices()
        await database.close()
        state.closedForGood()
        resumeWaiters()
        try closingOutcome()
    }

    private func closingOutcome() throws(PersistenceError) {
        if let failure = state.closingFailure { throw failure }
        if state.notTaken > 0 { throw refusal() }
    }

    // MARK: The worker

    /// Starts the worker, unless it is at work already (it then finds the new work itself).
    func startWorking() {
        guard !isWorking, !state.isClosedForGood else { return }
        isWorking = true
        // Started at once, not queued behind the main actor's other work.
        Task.immediate { [weak self] in await self?.work() }
    }

    /// Does what the state says, and ends when it says rest.
    private func work() async {
        defer {
            isWorking = false
            resumeWaiters()
        }
        while true {
            switch state.next() {
            case .write(let next): await write(next)
            case .look: await look()
            case .rest: return
            }
        }
    }

    private func write(_ next: RowWrite<Element>) async {
        // Begun once closing waits out locks: the last try. Begun before: tried again.
        let lastTry = state.closingPatience
        do throws(PersistenceError) {
            tracer.record(
                from: .persistence, to: .disk,
                "write 1 row of \(url.lastPathComponent) (\(next.change.summary))")
            let (conflicts, differs) = try await database.write(next)
            tracer.record(from: .disk, to: .persistence, "committed")
            if let notice = state.wrote(notices: conflicts, differs: differs) {
                store?.postNotice(notice)
            }
            resumeWaiters()
            if state.pending.isEmpty {
                // Edits refused while closing stay told: a write that succeeds does not save them.
                status.value =
                    state.notTaken > 0 ? .failed(refusal(), attempts: state.notTaken) : .saved
            }
        } catch {
            state.writeFailed(error)
            status.value = .failed(error, attempts: state.failures)
            resumeWaiters()
            guard let lastTry else {
                let failures = state.failures
                try? await Task.sleep(for: .milliseconds(min(50 << min(failures, 6), 2_000)))
                return
            }
            let count = state.pending.count
            let why =
                error == database.locked(for: lastTry)
                ? "another program kept the database locked for over \(lastTry) while it closed"
                : error.reason
            state.closingGaveUp(
                .unwritable(
                    path: database.path,
                    reason: "\(why); \(count) \(count == 1 ? "edit was" : "edits were") not saved"))
        }
    }

    /// Waits until the worker next ends a step (or closing ends).
    private func nextTurn() async {
        await withCheckedContinuation { waiters.append($0) }
    }

    private func resumeWaiters() {
        let waiting = waiters
        waiters.removeAll()
        for waiter in waiting { waiter.resume() }
    }
}
