public import Foundation
import MVCModel
public import MVCObservation
public import MVCStore
import MVCTracing

/// Keeps a store's list in an SQLite database: the ``/MVCStore/ListPersistence`` port, as the
/// JSON document's `DocumentPersistence` is.
///
/// - Writing: each edit in a transaction of its own, in order; ``saveStatus`` is `.pending` until
///   all are in the file. A write that fails (a lock held too long, a full disk) stays queued,
///   with the status `.failed`, and is tried again.
/// - Reading: every poll interval it asks SQLite whether another connection committed; if one
///   did, it reads the whole list off the main actor, and the store merges it in.
/// - A file deleted, moved, replaced, emptied or cut short while open is noticed at the next look
///   or write: nothing more is written at its path, the user is told once, and the whole list goes
///   to a new file beside it (`name.recovered.sqlite`) at the next edit or at the end.
///
/// Its life is a `DatabaseLifecycle`, a pure value whose effects this class runs. One worker
/// writes, recovers and looks, one thing at a time.
@MainActor
public final class SQLitePersistence<Element: SQLiteListElement>: ListPersistence {
    /// Where saving stands: `.pending` while edits wait to be written.
    public var saveStatus: ReadOnlyProperty<SaveStatus> { status.readOnly }
    private let status = ObservableProperty<SaveStatus>(.saved)
    /// The database file the list is kept in now (a recovery file, after the first was lost).
    public var url: URL { database.url }

    private(set) var database: ListDatabase<Element>
    weak var store: ListStore<Element>?
    let tracer: HopTracer
    private(set) var lifecycle = DatabaseLifecycle.opening
    private var pending: [RowWrite<Element>] = []
    /// This process's edits so far, which number the writes.
    private var edits = 0
    /// Failed writes in a row, and the last one's reason.
    private var failures = 0
    private var lastError: PersistenceError?
    private var waiters: [CheckedContinuation<Void, Never>] = []

    // The worker, and its work besides `pending`.
    private var isWorking = false
    private var foldsLog = false
    private var recoveryTarget: URL?
    private var isRecovering = false
    var wantsLook = false
    /// What looks told last, so that each problem and skipped row is told once.
    var lookProblem: String?
    var skippedRows: Set<String> = []

    /// Set once closing begins: how long it waits for other programs' locks, and until when.
    private var closingPatience: Duration?
    private var closingDeadline = ContinuousClock.now
    /// Why closing could not write everything; also ends the worker.
    private var closingFailure: PersistenceError?
    private var isClosedForGood = false

    var poller: Task<Void, Never>?
    /// Whether the poller still looks (until closing).
    var watching = false

    init(database: ListDatabase<Element>, tracer: HopTracer) {
        self.database = database
        self.tracer = tracer
        _ = lifecycle.handle(.opened, path: database.path)
    }

    isolated deinit {
        poller?.cancel()
    }

    // MARK: The calls

    /// Queues the row write for `change`; the worker writes it after those before it.
    public func listChanged(_ elements: [Element], by change: ListChange<Element>) {
        guard lifecycle.writes || lifecycle.isDetached else { return }
        edits += 1
        var write = RowWrite(change: change, serial: edits)
        switch change {
        case .inserted(_, let at), .moved(_, _, let at), .replaced(_, _, let at):
            write.predecessor = at > 0 ? elements[at - 1].id : nil
            write.successor = at + 1 < elements.count ? elements[at + 1].id : nil
        case .removed: break
        }
        pending.append(write)
        if failures == 0 { status.value = .pending }
        run(lifecycle.handle(.edited, path: database.path))
    }

    /// Returns once every edit made so far is in a file.
    ///
    /// - Throws: The reason of a write that failed, while its edit is in no file; the edit stays
    ///   queued and is tried again.
    public func flush() async throws(PersistenceError) {
        run(lifecycle.handle(.flushRequested, path: database.path))
        while !isClosedForGood, !pending.isEmpty || recoveryTarget != nil || isRecovering {
            await nextTurn()
            // Checked after the wait: an edit a retry wrote meanwhile is in the file.
            if failures > 0, !pending.isEmpty || lifecycle.isDetached, let lastError {
                throw lastError
            }
        }
        guard isClosedForGood else { return }
        if let closingFailure { throw closingFailure }
        if !pending.isEmpty {
            throw .unwritable(
                path: database.path, reason: "it was closed before the last edit could be written")
        }
    }

    /// Writes what is queued, then closes the database; returns after the last look has ended,
    /// leaving no notice, status change or open file behind.
    ///
    /// The writes wait for other programs' locks for up to `patience` in all, so that a busy
    /// moment loses nothing and a program that keeps the lock cannot keep this one from ending.
    /// A file lost meanwhile gets the list written beside it first.
    ///
    /// - Throws: Why the queued edits could not be written, and how many were not; the file is
    ///   closed all the same.
    public func close(patience: Duration = .seconds(60)) async throws(PersistenceError) {
        if isClosedForGood { return }
        guard closingPatience == nil else {
            while !isClosedForGood { await nextTurn() }
            if let closingFailure { throw closingFailure }
            return
        }
        // Set first: every write begun from here on waits as long (see `write(_:)`).
        closingPatience = patience
        closingDeadline = .now + patience
        watching = false
        await database.waitForLocks(patience, until: closingDeadline)
        if lifecycle == .open, let reason = await database.lost() { fileLost(reason) }
        var askedForList = false
        // Until the worker has nothing left (the list beside a lost file first), or a failure.
        writing: while closingFailure == nil {
            if isWorking {
                await nextTurn()
                continue
            }
            switch lifecycle {
            case .open: run(lifecycle.handle(.closeRequested, path: database.path))
            case .detached where !askedForList:
                askedForList = true
                run(lifecycle.handle(.closeRequested, path: database.path))
            case .detached:
                let why = lastError.map { "\($0)" } ?? "it could not be made"
                closingFailure = .unwritable(
                    path: database.path,
                    reason:
                        "it was lost, and the list open here could not be written beside it (\(why))"
                )
            case .closing where !pending.isEmpty: startWorking()  // an edit made while closing
            default: break writing
            }
        }
        _ = lifecycle.handle(.closed, path: database.path)
        await database.close()
        isClosedForGood = true
        resumeWaiters()
        if let closingFailure { throw closingFailure }
    }

    // MARK: The worker

    private func run(_ effects: [DatabaseLifecycle.Effect]) {
        for effect in effects {
            switch effect {
            case .writeQueued: startWorking()
            case .foldLog: foldsLog = true
            case .tell(let message): store?.postNotice(message)
            case .writeList(let path):
                recoveryTarget = URL(fileURLWithPath: path)
                startWorking()
            case .stopLooking: watching = false
            }
        }
    }

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
            if foldsLog {
                foldsLog = false
                await database.foldLog()
            } else if let target = recoveryTarget {
                recoveryTarget = nil
                // Asked again by an edit made while the list was being written there: done.
                if lifecycle.isDetached { await recover(to: target) }
            } else if lifecycle.writes, let next = pending.first {
                await write(next)
            } else if wantsLook, lifecycle == .open, watching {
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
            let (lost, conflicts) = try await database.write(next)
            if let lost { return fileLost(lost) }
            tracer.record(from: .disk, to: .persistence, "committed")
            // One notice: several posted in one turn would be seen as the last alone.
            if !conflicts.isEmpty { store?.postNotice(conflicts.joined(separator: "; ")) }
            pending.removeFirst()
            failures = 0
            if pending.isEmpty {
                status.value = .saved
                lastError = nil
            }
        } catch {
            if let reason = await database.lost() { return fileLost(reason) }
            if let reason = error.replacedByOtherProgram { return fileLost(reason) }
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

    // MARK: A lost file

    /// The path no longer names the open file: nothing more is written there, and the list goes
    /// to a new file beside it (at once, if edits were waiting to be written).
    func fileLost(_ reason: String) {
        guard !isClosedForGood else { return }
        let recovery = Self.recoveryURL(for: database.url).path
        run(lifecycle.handle(.fileLost(reason: reason, recovery: recovery), path: database.path))
        if !pending.isEmpty { run(lifecycle.handle(.edited, path: database.path)) }
    }

    /// The first name beside `url` that no file has, nor SQLite's companions of one:
    /// `name.recovered.ext`, then `name.recovered-2.ext`, and so on (the name shortened if SQLite
    /// would have no room for its `-journal` suffix).
    package static func recoveryURL(for url: URL) -> URL {
        var stem = url.deletingPathExtension().lastPathComponent
        let suffix = url.pathExtension.isEmpty ? "" : ".\(url.pathExtension)"
        while !stem.isEmpty,
            stem.utf8.count + suffix.utf8.count + ".recovered-99-journal".count > 255
        {
            stem.removeLast()
        }
        for number in 1... {
            let name = "\(stem).recovered\(number == 1 ? "" : "-\(number)")\(suffix)"
            let candidate = url.deletingLastPathComponent().appending(path: name)
            let names = ["", "-wal", "-shm", "-journal"].map { candidate.path + $0 }
            if names.allSatisfy({ FileIdentity(path: $0) == nil }) { return candidate }
        }
        return url
    }

    /// Writes the whole list to `target`, a new file, then keeps the list there.
    private func recover(to target: URL) async {
        guard let store else { return }
        isRecovering = true
        defer { isRecovering = false }
        let elements = store.elements
        // Every edit made so far is in `elements`: once they are written, those are done.
        let coveredThrough = edits
        tracer.record(
            from: .persistence, to: .disk,
            "write the list to \(target.lastPathComponent) (\(Element.counted(elements.count)))")
        do throws(PersistenceError) {
            var target = target
            // Its folder moved away with the file: made again, as the JSON document's is.
            try? FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            do throws(PersistenceError) {
                try await ListDatabase<Element>.create(elements, at: target)
            } catch {
                // Taken meanwhile (another program lost the same file, say): the next free name.
                guard Self.recoveryURL(for: database.url) != target else { throw error }
                target = Self.recoveryURL(for: database.url)
                try await ListDatabase<Element>.create(elements, at: target)
                store.postNotice("the list open here goes to \(target.path) instead")
            }
            let new = ListDatabase<Element>(url: target, busyWait: database.busyWait)
            _ = try await new.open()
            if let closingPatience {
                await new.waitForLocks(closingPatience, until: closingDeadline)
            }
            let old = database
            database = new
            pending.removeAll { $0.serial <= coveredThrough }
            await old.close()
            failures = 0
            status.value = pending.isEmpty ? .saved : .pending
            run(lifecycle.handle(.recovered, path: old.path))
        } catch {
            failed(error)
        }
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

    /// Why the open file is no longer one this program may write, if another program made it so:
    /// damaged it, or marked it with a newer schema version.
    var replacedByOtherProgram: String? {
        switch self {
        case .corrupt(_, let reason): "another program damaged it (\(reason))"
        case .newerVersion(_, let found, _):
            "another program marked it as format version \(found), which this program does not write"
        default: nil
        }
    }
}

extension DatabaseLifecycle {
    /// Whether the path no longer names the file that was opened.
    var isDetached: Bool {
        if case .detached = self { return true }
        return false
    }
}
