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
    public var isClosing: Bool { closingPatience != nil }
    /// The database file the list is kept in.
    public var url: URL { database.url }

    let database: ListDatabase<Element>
    weak var store: ListStore<Element>?
    let tracer: HopTracer
    /// Open, then closing (writing what is queued, no more looks), then closed (deaf).
    enum Stage { case open, closing, closed }
    private(set) var stage = Stage.open
    var pending: [RowWrite<Element>] = []
    /// How many edits were queued, and how many of them are written: `flush()` waits for the
    /// count it was called at, however many edits or other programs' commits come after.
    private var queued = 0
    private var written = 0
    /// Failed writes in a row, and the last one's reason.
    private var failures = 0
    private var lastError: PersistenceError?
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var isWorking = false
    var wantsLook = false
    /// What writes told of a row the store does not have as written: told once the look that
    /// brings the row has applied it, so that the update does not take the notice off a screen.
    var heldNotices: [String] = []
    /// What looks told last, so that each problem and skipped row is told once.
    var lookProblem: String?
    var skippedRows: Set<String> = []
    /// Set once closing begins: how long it waits for other programs' locks.
    private var closingPatience: Duration?
    /// Why closing could not write everything; also ends the worker.
    private var closingFailure: PersistenceError?
    private var isClosedForGood = false
    /// Edits made once closing had begun: not written, and said.
    private var notTaken = 0

    var poller: Task<Void, Never>?
    var watching = false  // whether the poller still looks (until closing)

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
        guard stage == .open, closingPatience == nil else {
            notTaken += 1
            status.value = .failed(refusal(), attempts: notTaken)
            return
        }
        var write = RowWrite(change: change)
        switch change {
        case .inserted(_, let at), .moved(_, _, let at), .replaced(_, _, let at):
            write.predecessor = at > 0 ? elements[at - 1].id : nil
            write.successor = at + 1 < elements.count ? elements[at + 1].id : nil
        case .removed: break
        }
        pending.append(write)
        queued += 1
        if failures == 0 { status.value = .pending }
        startWorking()
    }

    /// Returns once every edit made before the call is in the database, however often other
    /// programs commit meanwhile.
    ///
    /// - Throws: The reason of a write that failed, while its edit is not written; the edit stays
    ///   queued and is tried again.
    public func flush() async throws(PersistenceError) {
        if stage == .open { startWorking() }
        let target = queued
        while !isClosedForGood, written < target {
            await nextTurn()
            // Checked after the wait: an edit a retry wrote meanwhile is in the file.
            if failures > 0, written < target, let lastError { throw lastError }
        }
        if isClosedForGood, let closingFailure { throw closingFailure }
        if notTaken > 0 { throw refusal() }
    }

    /// Why the edits made once closing had begun are in no file.
    private func refusal() -> PersistenceError {
        .unwritable(
            path: database.path,
            reason:
                "it was closing or closed; \(notTaken) \(notTaken == 1 ? "edit" : "edits") made since then not saved"
        )
    }

    /// Writes what is queued, waiting for other programs' locks for up to `patience` in all, then
    /// closes the database; returns leaving no notice, status change or open file behind.
    ///
    /// - Throws: Why edits are in no file, and how many; the file is closed all the same.
    public func close(patience: Duration = .seconds(60)) async throws(PersistenceError) {
        if isClosedForGood { return }
        guard closingPatience == nil else {
            while !isClosedForGood { await nextTurn() }
            if let closingFailure { throw closingFailure }
            if notTaken > 0 { throw refusal() }
            return
        }
        // Set first: every write begun from here on waits as long (see `write(_:)`).
        closingPatience = patience
        watching = false
        await database.waitForLocks(patience, until: .now + patience)
        // Until the worker has nothing left, or a failure.
        while closingFailure == nil, isWorking || stage == .open {
            if isWorking {
                await nextTurn()
            } else {
                stage = .closing
                startWorking()
            }
        }
        stage = .closed
        tellHeldNotices()
        await database.close()
        isClosedForGood = true
        resumeWaiters()
        if let closingFailure { throw closingFailure }
        if notTaken > 0 { throw refusal() }
    }

    // MARK: The worker

    /// Starts the worker, unless it is at work already (it then finds the new work itself).
    func startWorking() {
        guard !isWorking, !isClosedForGood else { return }
        isWorking = true
        // Started at once, not queued behind the main actor's other work.
        Task.immediate { [weak self] in await self?.work() }
    }

    /// Does what there is to do, most urgent first, and ends when nothing is left.
    private func work() async {
        defer {
            isWorking = false
            resumeWaiters()
        }
        while closingFailure == nil {
            if stage != .closed, let next = pending.first {
                await write(next)
            } else if wantsLook, stage == .open, watching {
                wantsLook = false
                await look()
            } else {
                return
            }
        }
    }

    private func write(_ next: RowWrite<Element>) async {
        // Begun once closing waits out locks: the last try. Begun before: tried again.
        let lastTry = closingPatience
        do throws(PersistenceError) {
            tracer.record(
                from: .persistence, to: .disk,
                "write 1 row of \(url.lastPathComponent) (\(next.change.summary))")
            let (conflicts, differs) = try await database.write(next)
            tracer.record(from: .disk, to: .persistence, "committed")
            // One notice: several posted in one turn would be seen as the last alone. The row not
            // as this process has it: the look that follows the writes takes it in, then tells.
            if !conflicts.isEmpty {
                if differs {
                    heldNotices.append(conflicts.joined(separator: "; "))
                } else {
                    store?.postNotice(conflicts.joined(separator: "; "))
                }
            }
            if differs { wantsLook = true }
            pending.removeFirst()
            written += 1
            failures = 0
            resumeWaiters()
            if pending.isEmpty {
                // Edits refused while closing stay told: a write that succeeds does not save them.
                status.value = notTaken > 0 ? .failed(refusal(), attempts: notTaken) : .saved
                lastError = nil
            }
        } catch {
            failed(error)
            guard let lastTry else {
                try? await Task.sleep(for: .milliseconds(min(50 << min(failures, 6), 2_000)))
                return
            }
            let count = pending.count
            let why =
                error == database.locked(for: lastTry)
                ? "another program kept the database locked for over \(lastTry) while it closed"
                : error.reason
            closingFailure = .unwritable(
                path: database.path,
                reason: "\(why); \(count) \(count == 1 ? "edit was" : "edits were") not saved")
        }
    }

    private func failed(_ error: PersistenceError) {
        failures += 1
        lastError = error
        status.value = .failed(error, attempts: failures)
        resumeWaiters()
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

extension PersistenceError {
    /// What went wrong, without the path (which the error's description starts with).
    var reason: String {
        switch self {
        case .unreadable(_, let reason), .unwritable(_, let reason), .corrupt(_, let reason),
            .brokenRule(_, let reason), .migrationFailed(_, _, let reason):
            reason
        default: description
        }
    }
}
