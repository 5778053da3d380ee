import Foundation
import MVCModel
public import MVCObservation
public import MVCStore
import MVCTracing

/// Keeps a store's list in a PostgreSQL table (the ``/MVCStore/ListPersistence`` port).
///
/// One worker (the same `WorkerState` the SQLite adapter asks) writes each edit in a
/// transaction of its own, in order, merged with the stored row by ``/MVCStore/ElementMerge``;
/// an edit counts as saved once its transaction committed. Other clients' commits arrive as
/// notifications on a connection of its own, and each is taken in by reading only the rows
/// and tombstones changed after the last change the store has.
///
/// The network may fail: a write that cannot reach the server stays queued, ``saveStatus`` says
/// so with the reason, and it is tried again with backoff (up to 2 s) until it commits; the
/// listener connects again and looks, which makes up any notification missed meanwhile.
@MainActor
public final class PostgresPersistence<Element: RowListElement>: ListPersistence {
    /// Where saving stands: `.pending` while edits wait to be written.
    public var saveStatus: ReadOnlyProperty<SaveStatus> { status.readOnly }
    private let status = ObservableProperty<SaveStatus>(.saved)
    /// Where the list is kept.
    public nonisolated var location: PostgresLocation { table.location }

    let table: ListTable<Element>
    weak var store: ListStore<Element>?
    private let tracer: HopTracer
    private var state = WorkerState<RowWrite<Element>>()
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var isWorking = false
    private var listener: TableListener?

    init(table: ListTable<Element>, tracer: HopTracer) {
        self.table = table
        self.tracer = tracer
    }

    isolated deinit { listener?.stop() }

    /// Queues the row write for `change`; the worker writes it after those before it.
    public func listChanged(_ elements: [Element], by change: ListChange<Element>) {
        guard state.edited(RowWrite(change: change, in: elements)) else {
            status.value = .failed(refusal(), attempts: state.notTaken)
            return
        }
        if state.failures == 0 { status.value = .pending }
        startWorking()
    }

    /// Returns once every edit made before the call is committed.
    ///
    /// - Throws: The reason of a write that failed (the server cannot be reached, say), while
    ///   its edit is not written; the edit stays queued, and is tried again.
    public func flush() async throws(PersistenceError) {
        if state.stage == .open { startWorking() }
        let target = state.queued
        while true {
            if case .done = state.flush(target: target) { break }
            await nextTurn()
            if case .failed(let error) = state.flush(target: target) { throw error }
        }
        if state.isClosedForGood, let failure = state.closingFailure { throw failure }
        if state.notTaken > 0 { throw refusal() }
    }

    /// Looks for other clients' commits now, and takes them in (a notification does this).
    public func lookForChanges() {
        if state.lookAsked() { startWorking() }
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
        if state.isClosedForGood { return }
        guard state.closingPatience == nil else {
            while !state.isClosedForGood { await nextTurn() }
            try closingOutcome()
            return
        }
        state.closingBegan(patience: patience)
        listener?.stop()
        let deadline = ContinuousClock.now + patience
        while state.closingFailure == nil, isWorking || state.stage == .open {
            if isWorking {
                await nextTurn()
            } else {
                state.closingWrites()
                startWorking()
            }
            if ContinuousClock.now > deadline, !state.pending.isEmpty, let error = state.lastError {
                let count = state.pending.count
                state.closingGaveUp(
                    .unwritable(
                        path: location.description,
                        reason:
                            "\(error.reason); \(count) \(count == 1 ? "edit was" : "edits were") not saved"
                    ))
            }
        }
        // A write that gave up may still be in its pause: closing returns once the worker ended.
        while isWorking { await nextTurn() }
        state.closed()
        tellHeldNotices()
        await table.close()
        state.closedForGood()
        resumeWaiters()
        try closingOutcome()
    }

    private func closingOutcome() throws(PersistenceError) {
        if let failure = state.closingFailure { throw failure }
        if state.notTaken > 0 { throw refusal() }
    }

    private func refusal() -> PersistenceError {
        let count = state.notTaken
        return .unwritable(
            path: location.description,
            reason:
                "it was closing or closed; \(count) \(count == 1 ? "edit" : "edits") made since then not saved"
        )
    }

    /// Listens for other clients' commits from now on.
    func listen() {
        state.startedWatching()
        let listener = TableListener(location: location) { [weak self] in
            Task { @MainActor in self?.lookForChanges() }
        }
        self.listener = listener
        listener.start()
    }

    /// Looks only when asked, from now on.
    func watchOnlyWhenAsked() { state.startedWatching() }

    // MARK: The worker

    private func startWorking() {
        guard !isWorking, !state.isClosedForGood else { return }
        isWorking = true
        Task.immediate { [weak self] in await self?.work() }
    }

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
        do throws(PersistenceError) {
            tracer.record(
                from: .persistence, to: .disk,
                "write 1 row of \(location.table) (\(next.change.summary))")
            let (conflicts, differs) = try await table.write(next)
            tracer.record(from: .disk, to: .persistence, "committed")
            if let notice = state.wrote(notices: conflicts, differs: differs) {
                store?.postNotice(notice)
            }
            resumeWaiters()
            if state.pending.isEmpty {
                status.value =
                    state.notTaken > 0 ? .failed(refusal(), attempts: state.notTaken) : .saved
            }
        } catch {
            state.writeFailed(error)
            status.value = .failed(error, attempts: state.failures)
            resumeWaiters()
            // Closing tries again at once and often: it has only its patience.
            let backoff =
                state.closingPatience == nil ? min(50 << min(state.failures, 6), 2_000) : 50
            try? await Task.sleep(for: .milliseconds(backoff))
        }
    }

    /// Reads what other clients committed since the last change the store has, and applies it.
    private func look() async {
        guard let store else { return }
        let read = await table.look()
        guard state.stage == .open, state.isWatching else { return }
        defer { if state.pending.isEmpty { tellHeldNotices() } }
        switch read {
        case .success(let changes?):
            state.lookSucceeded()
            guard state.lookRead() else { return }
            if let whole = changes.whole {
                let base = store.elements
                _ = await store.takeIn(
                    base: base, fileVersion: whole.elements, notices: told(whole.problems))
            } else {
                let changed = changes.rows.compactMap { row in
                    row.element.map { (element: $0, predecessors: row.predecessors) }
                }
                guard store.takeIn(changed: changed, deleted: changes.deleted) else {
                    // A row could not be placed: the whole list, at the next look.
                    await table.tookIn(through: -1, epoch: "")
                    return state.lookAgain()
                }
                for notice in told(changes.rows.compactMap(\.problem)) { store.postNotice(notice) }
            }
            await table.tookIn(through: changes.through, epoch: changes.epoch)
        case .success(nil):
            state.lookSucceeded()
        case .failure(let error):
            let problem = "could not read other clients' changes: \(error)"
            if state.lookFailed(problem) { store.postNotice(problem) }
            // Tried again half a second on: a look can fail while the listener stays connected.
            try? await Task.sleep(for: .milliseconds(500))
            _ = state.lookAsked()
        }
    }

    private func tellHeldNotices() {
        for notice in state.takeHeldNotices() { store?.postNotice(notice) }
    }

    private func told(_ problems: [String]) -> [String] {
        state.skipped(problems).map { "skipped a row another program wrote: \($0)" }
    }

    private func nextTurn() async {
        await withCheckedContinuation { waiters.append($0) }
    }

    private func resumeWaiters() {
        let waiting = waiters
        waiters.removeAll()
        for waiter in waiting { waiter.resume() }
    }
}
