import MVCElements
package import MVCObservation
package import MVCTracing

/// The one worker behind each database adapter (SQLite's and PostgreSQL's): it writes each edit
/// in order, looks for other programs' commits when asked, and closes.
///
/// What it knows and decides is ``WorkerState``'s; what the database does its own way is the
/// ``RowDatabase``'s; this class runs the two, publishes where saving stands, and hands what
/// other programs committed to the store's ``ListInbox``.
@MainActor
package final class RowWorker<Database: RowDatabase> {
    package typealias Element = Database.Element

    /// Where saving stands: `.pending` while edits wait to be written.
    package var saveStatus: ReadOnlyProperty<SaveStatus> { status.readOnly }
    private let status = ObservableProperty<SaveStatus>(.saved)
    package let database: Database
    package weak var inbox: (any ListInbox<Element>)?
    private let tracer: HopTracer
    private(set) var state = WorkerState<RowWrite<Element>>()
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var isWorking = false
    /// When closing's patience runs out.
    private var closingDeadline: ContinuousClock.Instant?

    package init(database: Database, tracer: HopTracer) {
        self.database = database
        self.tracer = tracer
    }

    /// Whether closing has begun: edits made from then on are not taken.
    package var isClosing: Bool { state.closingPatience != nil }

    // MARK: The calls

    /// Queues the row write for `change`, written after those before it.
    ///
    /// Once closing has begun an edit is not taken (edits cannot hold closing open), and said.
    package func listChanged(_ elements: [Element], by change: ListChange<Element>) {
        guard state.edited(RowWrite(change: change, in: elements)) else {
            status.value = .failed(refusal(), attempts: state.notTaken)
            return
        }
        // Begun first: the write's hop to the database is under way while the status is told.
        startWorking()
        if state.failures == 0 { status.value = .pending }
    }

    /// Returns once every edit made before the call is written, however often others commit.
    ///
    /// Throws the reason of a write that failed, while its edit is not written.
    package func flush() async throws(PersistenceError) {
        if state.stage == .open { startWorking() }
        let target = state.queued
        while true {
            if case .done = state.flush(target: target) { break }
            await nextTurn()
            // Checked after the wait: an edit a retry wrote meanwhile is written.
            if case .failed(let error) = state.flush(target: target) { throw error }
        }
        if state.isClosedForGood, let failure = state.closingFailure { throw failure }
        if state.notTaken > 0 { throw refusal() }
    }

    /// Looks are made from now on, until closing.
    package func startedWatching() { state.startedWatching() }

    /// Looks for other programs' commits now, and takes them in.
    package func lookForChanges() {
        if state.lookAsked() { startWorking() }
    }

    /// Writes what is queued, for up to `patience` in all, then lets go of the database.
    package func close(patience: Duration) async throws(PersistenceError) {
        if state.isClosedForGood { return }
        guard state.closingPatience == nil else {
            while !state.isClosedForGood { await nextTurn() }
            try closingOutcome()
            return
        }
        // Set first: every write begun from here on is closing's.
        state.closingBegan(patience: patience)
        closingDeadline = .now + patience
        await database.closingBegan(patience: patience)
        // Until the worker has nothing left, or a failure.
        while state.closingFailure == nil, isWorking || state.stage == .open {
            if isWorking {
                await nextTurn()
            } else {
                state.closingWrites()
                startWorking()
            }
        }
        // A write that gave up may still be in its pause: closing returns once the worker ended.
        while isWorking { await nextTurn() }
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

    /// Why the edits made once closing had begun are in no file.
    private func refusal() -> PersistenceError {
        .unwritable(
            path: database.place,
            reason:
                "it was closing or closed; \(Self.edits(state.notTaken)) made since then not saved")
    }

    private static func edits(_ count: Int) -> String {
        "\(count) \(count == 1 ? "edit" : "edits")"
    }

    // MARK: The worker

    private func startWorking() {
        guard !isWorking, !state.isClosedForGood else { return }
        isWorking = true
        // Started at once, not queued behind the main actor's other work. Held strongly while it
        // works (a weak capture would give the worker a weak-reference table that LeakSanitizer
        // reports at exit, its only mention being shifted into the object's header).
        Task.immediate { await self.work() }
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
        // Begun once closing began: closing's rules. Begun before: tried again with backoff.
        let closingPatience = state.closingPatience
        do throws(PersistenceError) {
            tracer.record(
                from: .persistence, to: .disk,
                "write 1 row of \(database.shortName) (\(next.change.summary))")
            let (conflicts, differs) = try await database.write(next)
            tracer.record(from: .disk, to: .persistence, "committed")
            if let notice = state.wrote(notices: conflicts, differs: differs) {
                inbox?.postNotice(notice)
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
            guard let closingPatience else {
                // Closing, begun meanwhile, tries again at once and often: it has only its
                // patience. Before it, with backoff.
                let failures = state.failures
                let pause = state.closingPatience == nil ? min(50 << min(failures, 6), 2_000) : 50
                try? await Task.sleep(for: .milliseconds(pause))
                return
            }
            let passed = closingDeadline.map { ContinuousClock.now >= $0 } ?? true
            guard
                let why = database.closingGivesUp(
                    after: error, patience: closingPatience, deadlinePassed: passed)
            else {
                // Closing tries again at once and often: it has only its patience.
                try? await Task.sleep(for: .milliseconds(50))
                return
            }
            let count = state.pending.count
            state.closingGaveUp(
                .unwritable(
                    path: database.place,
                    reason: "\(why); \(count) \(count == 1 ? "edit was" : "edits were") not saved"))
        }
    }

    /// Looks once, and hands the store what other programs committed since the last mark.
    ///
    /// No merge happens here: a look is taken in only when every edit of this process is written
    /// (each write merged with the stored row), so the database holds the one answer and the
    /// store takes it.
    private func look() async {
        guard let inbox else { return }
        let read = await database.look()
        // Rows are placed by id: not while a long list just opened is indexed elsewhere.
        await inbox.finishIndexing()
        // Closed while the look was under way.
        guard state.stage == .open, state.isWatching else { return }
        defer { if state.pending.isEmpty { tellHeldNotices() } }
        switch read {
        case .success(let changes?):
            state.lookSucceeded()
            // Edits made here while it read are written first; it looks again after them.
            guard state.lookRead() else { return }
            if let whole = changes.whole {
                let base = inbox.elements
                _ = await inbox.takeIn(
                    base: base, fileVersion: whole.elements, notices: told(whole.problems))
                // Freeing a long list takes a while: off the main actor.
                Task.detached(priority: .background) { withExtendedLifetime((base, whole)) {} }
            } else {
                let changed = changes.rows.compactMap { row in
                    row.element.map { (element: $0, predecessors: row.predecessors) }
                }
                guard inbox.takeIn(changed: changed, deleted: changes.deleted) else {
                    // A row could not be placed (every row named before it is one this process
                    // skipped): the whole list, at the next look.
                    await database.readWholeListNext()
                    return state.lookAgain()
                }
                for notice in told(changes.rows.compactMap(\.problem)) { inbox.postNotice(notice) }
            }
            await database.tookIn(changes.mark)
        case .success(nil):
            state.lookSucceeded()
        case .failure(let error):
            let problem = "could not read other \(database.others)' changes: \(error)"
            if state.lookFailed(problem) { inbox.postNotice(problem) }
            guard let retry = database.lookRetry else { return }
            try? await Task.sleep(for: retry)
            _ = state.lookAsked()
        }
    }

    /// Tells what the writes held back, once the rows they are about are in the store.
    private func tellHeldNotices() {
        for notice in state.takeHeldNotices() { inbox?.postNotice(notice) }
    }

    /// A notice for each row skipped that was not told at the last look: each is told once, not
    /// at every commit while it is there.
    private func told(_ problems: [String]) -> [String] {
        state.skipped(problems).map { "skipped a row another program wrote: \($0)" }
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
