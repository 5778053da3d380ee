public import Foundation
import MVCModel
public import MVCObservation
public import MVCStore
import MVCTracing

/// Keeps a ``/MVCStore/ListStore``'s list in an SQLite database: each edit written as it is made,
/// in a transaction of its own, and other processes' commits taken in as ordinary store updates.
///
/// The store does not know which persistence it has: this type and the JSON document's
/// `DocumentPersistence` are the two ``/MVCStore/ListPersistence``s, and
/// presenters and screens see the same store either way.
///
/// - Writing: edits are written in order, one transaction each, on the database's own queue;
///   ``saveStatus`` is `.pending` until every edit made so far is in the file, then `.saved`. A
///   write that fails (another process kept the database locked past the busy wait, the disk is
///   full) stays queued, with the status `.failed`, and is tried again until it succeeds.
/// - Reading: every poll interval it asks SQLite whether another connection committed
///   (`PRAGMA data_version`); after a commit, the rows its log entries name are read off the main
///   actor, and only the resulting edits are applied on it. Taking in waits until this process's
///   own edits are written.
/// - A file deleted, moved, replaced or emptied by another program while it is open is noticed at
///   the next look or write. Nothing more is written at its path; the store's notice says so once,
///   naming the new file beside it (`name.recovered.sqlite`, never one already there) where the
///   whole list is written at the next edit or at the end, and kept from then on.
///
/// Its life is a `DatabaseLifecycle`, a pure value: this class runs its effects.
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
    /// Names this process's entries in the change log.
    private let origin = UUID().uuidString
    private(set) var pending: [RowWrite<Element>] = []
    private var isWriting = false
    private var failures = 0
    private var failureCount = 0
    private var lastError: PersistenceError?
    private var waiters: [CheckedContinuation<Void, Never>] = []
    /// The last change log entry this process has taken in.
    var seen: Int64
    /// Counts this process's edits, so a look that raced with one is done again.
    var edits = 0
    var isLooking = false
    var looksAgain = false
    var forcesNextLook = false
    var readsWholeNext = false
    var poller: Task<Void, Never>?
    /// Whether the poller still looks (until closing).
    var watching = false

    init(database: ListDatabase<Element>, seen: Int64, tracer: HopTracer) {
        self.database = database
        self.seen = seen
        self.tracer = tracer
        _ = lifecycle.handle(.opened, path: database.path)
    }

    isolated deinit {
        poller?.cancel()
    }

    // MARK: Writing

    /// Queues the row write for `change`; the writer writes it in order, after those before it.
    public func listChanged(_ elements: [Element], by change: ListChange<Element>) {
        guard lifecycle.writes || lifecycle.isDetached else { return }
        edits += 1
        let position: Int? =
            switch change {
            case .inserted(_, let at), .moved(_, _, let at), .replaced(_, _, let at): at
            case .removed: nil
            }
        var write = RowWrite(change: change)
        if let position {
            write.predecessor = position > 0 ? elements[position - 1].id : nil
            write.successor = position + 1 < elements.count ? elements[position + 1].id : nil
        }
        write.serial = edits
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
        let failuresBefore = failureCount
        while !pending.isEmpty || isRecovering {
            await withCheckedContinuation { waiters.append($0) }
            // Checked after the wait: an edit a retry wrote meanwhile is in the file.
            if failureCount > failuresBefore, !pending.isEmpty || lifecycle.isDetached,
                let lastError
            {
                throw lastError
            }
            if isClosedForGood, let closingFailure { throw closingFailure }
        }
    }

    /// Writes what is queued, then closes the database; returns after the last look has ended,
    /// leaving no notice, status change or open file behind.
    ///
    /// While another program keeps the database locked, it goes on trying for up to `patience`:
    /// at the end of a program, a busy moment must not lose the edits still queued. A file lost
    /// meanwhile gets the list written beside it first.
    ///
    /// - Throws: Why the queued edits could not be written, and how many were not; the file is
    ///   closed all the same.
    public func close(patience: Duration = .seconds(60)) async throws(PersistenceError) {
        // Closed already: nothing to do. Closing now: waits for it, and says what it says.
        if isClosedForGood { return }
        guard !isClosing else {
            while !isClosedForGood { try? await Task.sleep(for: .milliseconds(5)) }
            if let closingFailure { throw closingFailure }
            return
        }
        isClosing = true
        let deadline = ContinuousClock.now + patience
        var failure: PersistenceError?
        while failure == nil, lifecycle != .closing {
            if lifecycle == .open, let reason = await database.lost() { fileLost(reason) }
            if lifecycle.isDetached {
                // The list goes beside the lost file first; then the recovery file is closed.
                run(lifecycle.handle(.closeRequested, path: database.path))
                while isRecovering { await withCheckedContinuation { waiters.append($0) } }
                if lifecycle.isDetached {
                    failure =
                        lastError
                        ?? .unwritable(
                            path: database.path, reason: "the list could not be written beside it")
                }
                continue
            }
            run(lifecycle.handle(.closeRequested, path: database.path))
            await waitForLook()
            // Writing what is queued, patiently; a file lost meanwhile sends the list beside it.
            while !pending.isEmpty, lifecycle == .closing {
                let failuresBefore = failureCount
                if !isWriting { startWriting() }
                await withCheckedContinuation { waiters.append($0) }
                if failureCount > failuresBefore, !pending.isEmpty, let lastError,
                    !database.isBusy(lastError) || ContinuousClock.now >= deadline
                {
                    let count = pending.count
                    failure =
                        database.isBusy(lastError)
                        ? .unwritable(
                            path: database.path,
                            reason:
                                "another program kept the database locked for over \(patience) while it closed; \(count) \(count == 1 ? "edit was" : "edits were") not saved"
                        ) : lastError
                    break
                }
            }
            if failure == nil, lifecycle.isDetached { continue }
            break
        }
        stopLooking()
        await waitForLook()
        // From here nothing is written, told or looked at; a writer pausing after a failure ends.
        closingFailure = failure
        isClosedForGood = true
        while isRecovering || isWriting { try? await Task.sleep(for: .milliseconds(2)) }
        pending.removeAll()
        await database.close()
        _ = lifecycle.handle(.closed, path: database.path)
        resumeWaiters()
        if let failure { throw failure }
    }

    private var isClosing = false
    /// Why closing could not write everything, for a `flush` that waited meanwhile.
    private var closingFailure: PersistenceError?

    /// Set by `close()`: nothing is told, written or looked at afterwards.
    private(set) var isClosedForGood = false
    private var isRecovering = false

    private func run(_ effects: [DatabaseLifecycle.Effect]) {
        for effect in effects {
            switch effect {
            case .writeQueued: startWriting()
            case .foldLog: Task { [database] in await database.foldLog() }
            case .tell(let message): store?.postNotice(message)
            case .writeList(let path): recover(to: URL(fileURLWithPath: path))
            case .stopLooking: stopLooking()
            case .closeFile: break  // `close()` lets go once the queue is written
            }
        }
    }

    private func startWriting() {
        guard !isWriting, !pending.isEmpty, lifecycle.writes else { return }
        isWriting = true
        // Started at once, not queued behind the main actor's other work.
        Task.immediate { [weak self] in await self?.writeQueued() }
    }

    private func writeQueued() async {
        defer {
            isWriting = false
            resumeWaiters()
        }
        // The file written to: recovery may swap it for another while a write is under way.
        let writing = database
        while lifecycle.writes, let next = pending.first, !isClosedForGood, writing === database {
            do throws(PersistenceError) {
                tracer.record(
                    from: .persistence, to: .disk,
                    "write 1 row of \(url.lastPathComponent) (\(next.change.summary))")
                let written = try await writing.write(next, origin: origin)
                if let reason = written.lost {
                    fileLost(reason)
                    return
                }
                tracer.record(from: .disk, to: .persistence, "committed")
                // Found by its number: a recovery meanwhile may have taken it off the queue.
                pending.removeAll { $0.serial == next.serial }
                guard writing === database, !isClosedForGood else { return }
                failures = 0
                // Nobody else wrote since the last entry taken in: this process's own entry is
                // seen too, so the log's trimming never leaves a process that only writes behind.
                if written.entry == seen + 1, !isLooking { seen = written.entry }
                takeIn(written, for: next)
            } catch {
                guard writing === database, !isClosedForGood else { return }
                if let reason = await writing.lost() {
                    fileLost(reason)
                    return
                }
                if case .corrupt(_, let reason) = error {
                    fileLost("another program damaged it (\(reason))")
                    return
                }
                failures += 1
                failureCount += 1
                lastError = error
                status.value = .failed(error, attempts: failures)
                resumeWaiters()
                let pause = Duration.milliseconds(min(50 << min(failures, 6), 2_000))
                do { try await Task.sleep(for: pause) } catch { return }
            }
        }
        guard pending.isEmpty, lifecycle.writes else { return }
        status.value = .saved
        lastError = nil
        if looksAgain { lookForChanges() }
    }

    private func resumeWaiters() {
        let waiting = waiters
        waiters.removeAll()
        for waiter in waiting { waiter.resume() }
    }

    /// What a write found that this process's list does not have yet: another process's edit of
    /// other fields, or neighbours it moved meanwhile.
    private func takeIn(_ written: WriteResult<Element>, for write: RowWrite<Element>) {
        guard let store else { return }
        if let merged = written.merged, case .replaced(_, let new, _) = write.change {
            tracer.record(from: .persistence, to: .store, "merged “\(merged.title)”")
            store.takeIn([.replace(old: new, new: merged)])
        }
        if let predecessor = written.predecessor, pending.isEmpty,
            let element = store.element(withID: write.change.element.id)
        {
            store.takeIn(
                Self.edits(
                    bringing: RemoteRow(id: element.id, element: element, predecessor: predecessor),
                    into: store))
        }
    }

    // MARK: A lost file

    /// The path no longer names the open file: nothing more is written there, and the list goes
    /// to a new file beside it (at once, if edits were waiting to be written).
    func fileLost(_ reason: String) {
        guard !isClosedForGood else { return }
        let recovery = Self.recoveryURL(for: database.url)
        run(
            lifecycle.handle(
                .fileLost(reason: reason, recovery: recovery.path), path: database.path))
        if !pending.isEmpty { run(lifecycle.handle(.edited, path: database.path)) }
    }

    /// The first name beside `url` that no file has: `name.recovered.ext`, then
    /// `name.recovered-2.ext`, and so on.
    package static func recoveryURL(for url: URL) -> URL {
        let folder = url.deletingLastPathComponent()
        let stem = url.deletingPathExtension().lastPathComponent
        let suffix = url.pathExtension.isEmpty ? "" : ".\(url.pathExtension)"
        for number in 1... {
            let name = "\(stem).recovered\(number == 1 ? "" : "-\(number)")\(suffix)"
            let candidate = folder.appending(path: name)
            if !FileManager.default.fileExists(atPath: candidate.path) { return candidate }
        }
        return folder.appending(path: "\(stem).recovered\(suffix)")
    }

    /// Writes the whole list to `target`, a new file, then keeps the list there.
    private func recover(to target: URL) {
        guard !isRecovering, !isClosedForGood, let store else { return }
        isRecovering = true
        let elements = store.elements
        let busyWait = database.busyWait
        // Every edit made so far is in `elements`: once they are written, those are done.
        let coveredThrough = edits
        tracer.record(
            from: .persistence, to: .disk,
            "write the list to \(target.lastPathComponent) (\(Element.counted(elements.count)))")
        Task { [weak self] in
            do throws(PersistenceError) {
                var target = target
                do throws(PersistenceError) {
                    try await ListDatabase<Element>.create(elements, at: target)
                } catch {
                    // Taken meanwhile (another program lost the same file, say): the next free
                    // name, and the user is told where the list goes now.
                    guard FileManager.default.fileExists(atPath: target.path) else { throw error }
                    target = Self.recoveryURL(for: target)
                    try await ListDatabase<Element>.create(elements, at: target)
                    self?.store?.postNotice("the list open here goes to \(target.path) instead")
                }
                let database = ListDatabase<Element>(url: target, busyWait: busyWait)
                let opened = try await database.open()
                await self?.recovered(
                    database, through: opened.through, coveredThrough: coveredThrough)
            } catch {
                self?.recoveryFailed(error)
            }
        }
    }

    private func recovered(
        _ new: ListDatabase<Element>, through: Int64, coveredThrough: Int
    ) async {
        let old = database
        database = new
        seen = through
        // The edits made when the list was taken are in it; those made since go to the new file.
        pending.removeAll { $0.serial <= coveredThrough }
        await old.close()
        isRecovering = false
        failures = 0
        status.value = pending.isEmpty ? .saved : .pending
        run(lifecycle.handle(.recovered, path: old.path))
        resumeWaiters()
    }

    private func recoveryFailed(_ error: PersistenceError) {
        isRecovering = false
        failures += 1
        failureCount += 1
        lastError = error
        status.value = .failed(error, attempts: failures)
        resumeWaiters()
    }
}

extension DatabaseLifecycle {
    /// Whether the path no longer names the file that was opened.
    var isDetached: Bool {
        if case .detached = self { return true }
        return false
    }
}
