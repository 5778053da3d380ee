public import Foundation
import MVCModel
public import MVCObservation
import MVCPersistence
public import MVCStore
import MVCTracing

/// Keeps a ``/MVCStore/ListStore``'s list in an SQLite database: each edit written as it is made,
/// in a transaction of its own, and other processes' commits taken in as ordinary store updates.
///
/// The store does not know which persistence it has: this type and
/// ``/MVCPersistence/DocumentPersistence`` are the two ``/MVCStore/ListPersistence``s, and presenters and
/// screens see the same store either way.
///
/// - Writing: edits are written in order, one transaction each, on the database's own queue (see
///   `ListDatabase`); ``saveStatus`` is `.pending` until every edit made so far is on disk,
///   then `.saved`. A write that fails (another process kept the database locked past the busy
///   wait, the disk is full) is retried, with the status `.failed`, until it succeeds.
/// - Reading: after another process commits (the operating system says the database changed, or
///   every `pollInterval` where it cannot, and every 2 s as well in case a notice never comes), the rows its log entries name are read off the main
///   actor, and only the resulting edits are applied on it, a few milliseconds at a time. Taking
///   in waits until this process's own edits are written, so a row read back is never older than
///   this process's edit of it.
@MainActor
public final class SQLitePersistence<Element: SQLiteListElement>: ListPersistence {
    /// Where saving stands: `.pending` while edits wait to be written.
    public var saveStatus: ReadOnlyProperty<SaveStatus> { status.readOnly }
    private let status = ObservableProperty<SaveStatus>(.saved)
    /// The database file.
    public var url: URL { database.url }
    /// Whether the operating system's notices of changes are used (else the database is polled,
    /// or, with no poll interval, looked at only when ``lookForChanges()`` is called).
    public private(set) var isWatchingFileEvents = false

    let database: ListDatabase<Element>
    weak var store: ListStore<Element>?
    private let tracer: HopTracer
    private var pending: [RowWrite<Element>] = []
    private var writer: Task<Void, Never>?
    private var isWriting = false
    private var isClosed = false
    private var failures = 0
    private var failureCount = 0
    private var lastError: PersistenceError?
    private var waiters: [CheckedContinuation<Void, Never>] = []
    /// The last change log entry this process has taken in.
    private var seen: Int64
    /// Counts this process's edits, so a look that raced with one is done again.
    private var edits = 0
    private var isLooking = false
    private var looksAgain = false
    private var watcher: FileChangeWatcher?
    private var poller: Task<Void, Never>?
    private var trailingLooks: Task<Void, Never>?
    private var forcesNextLook = false
    private var readsWholeNext = false
    private var isReopening = false
    /// Reopenings that worked: a write that failed while one happened is tried again at once.
    private var reopenings = 0
    /// Reopenings that failed in a row (the first is told in a notice).
    private var reopeningFailures = 0

    init(database: ListDatabase<Element>, seen: Int64, tracer: HopTracer) {
        self.database = database
        self.seen = seen
        self.tracer = tracer
    }

    isolated deinit {
        writer?.cancel()
        poller?.cancel()
        trailingLooks?.cancel()
        watcher?.cancel()
    }

    // MARK: Writing

    /// Queues the row write for `change`; the writer writes it in order, after those before it.
    public func listChanged(_ elements: [Element], by change: ListChange<Element>) {
        guard !isClosed else { return }
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
        pending.append(write)
        if failures == 0 { status.value = .pending }
        startWriting()
    }

    /// Waits until every edit made so far is written.
    ///
    /// - Throws: The error of a write that failed while waiting; its edit stays queued and is
    ///   tried again.
    public func flush() async throws(PersistenceError) {
        let failuresBefore = failureCount
        while !pending.isEmpty {
            await withCheckedContinuation { waiters.append($0) }
            if failureCount > failuresBefore, let lastError { throw lastError }
        }
    }

    /// Writes what is queued, then closes the database.
    ///
    /// While another program keeps the database locked, it goes on trying for up to `patience`:
    /// at the end of a program, a busy moment must not lose the edits still queued. (``flush()``
    /// gives up at the first failed write, so that a screen can say so at once.) Any other
    /// failure ends it at once. A look that is reopening the file ends first, and a file deleted
    /// just before is made again with the list, as a look would. The last process to close folds
    /// the write-ahead log into the file. The store keeps working in memory; nothing is written
    /// after this.
    ///
    /// - Parameter patience: How long to go on trying while the database is locked.
    /// - Throws: The error of the last write that failed; the database stays open, and its edits
    ///   stay queued.
    public func close(patience: Duration = .seconds(60)) async throws(PersistenceError) {
        let deadline = ContinuousClock.now + patience
        var triedReopening = false
        while true {
            // A look reading or reopening the file ends first: closing under a reopening would
            // leave a file made again without its list.
            while isLooking || isReopening {
                do { try await Task.sleep(for: .milliseconds(10)) } catch { break }
            }
            // Deleted or replaced, and no look has opened the file at the path yet: open it as a
            // look would, so that a list whose file was deleted just before is not lost.
            // (Once: with no store left, there is no list to keep, and nothing is reopened.)
            if !triedReopening, await database.needsReopening() {
                triedReopening = true
                isLooking = true
                await reopen(editsBefore: edits)
                if await database.needsReopening(), case .failed(let error, _) = status.value {
                    throw error
                }
                continue
            }
            do throws(PersistenceError) {
                try await flush()
            } catch {
                guard database.isBusy(error) else { throw error }
                guard ContinuousClock.now < deadline else {
                    throw .unwritable(
                        path: url.path,
                        reason:
                            "another program kept the database locked for over \(patience) while it closed; \(pending.count) \(pending.count == 1 ? "edit was" : "edits were") not saved"
                    )
                }
                continue
            }
            if !isLooking, !isReopening { break }
        }
        // Looking stops by this flag; the watcher and the poller are let go with the object.
        // (Cancelled here, they would drop the last weak references to this object, and
        // LeakSanitizer, which cannot see a live object's weak-reference table through its
        // reference count, would report that table as leaked at exit.)
        isClosed = true
        await database.close()
    }

    private func startWriting() {
        // While the file is being reopened, edits wait: they belong in the file that replaces it.
        guard !isWriting, !isReopening, !pending.isEmpty else { return }
        // Started at once, not queued behind the main actor's other work: an edit reaches the
        // database's queue without waiting for a turn of the main actor. (So the flag, set
        // inside, says whether a writer runs; the handle is kept only to cancel it.)
        writer = Task.immediate { [weak self] in await self?.writeQueued() }
    }

    private func writeQueued() async {
        isWriting = true
        defer { isWriting = false }
        var reopeningsBefore = reopenings
        while let next = pending.first, !Task.isCancelled {
            do throws(PersistenceError) {
                tracer.record(
                    from: .persistence, to: .disk,
                    "write 1 row of \(url.lastPathComponent) (\(next.change.summary))")
                reopeningsBefore = reopenings
                let written = try await database.write(next)
                tracer.record(from: .disk, to: .persistence, "committed")
                pending.removeFirst()
                failures = 0
                // Nobody else wrote since the last entry taken in: this process's own entry is
                // seen too, so the log's trimming never leaves a process that only writes behind.
                if written.entry == seen + 1, !isLooking { seen = written.entry }
                if let merged = written.merged, case .replaced(_, let new, _) = next.change {
                    // Another process changed other fields meanwhile: the row holds both edits.
                    tracer.record(from: .persistence, to: .store, "merged “\(merged.title)”")
                    store?.takeIn([.replace(old: new, new: merged)])
                }
                if let predecessor = written.predecessor, pending.isEmpty, let store,
                    let element = store.element(withID: next.change.element.id)
                {
                    // Another process moved the neighbours meanwhile: the row went where the
                    // database's order put it, and the list follows, so both agree.
                    store.takeIn(
                        Self.edits(
                            bringing: RemoteRow(
                                id: element.id, element: element, predecessor: predecessor),
                            into: store))
                }
            } catch {
                // The file was reopened while the write was on its way (it found the old file
                // gone): the edit goes to the new one, unless the reopening wrote it already.
                if reopenings != reopeningsBefore { continue }
                var reopens = false
                if !isClosed { reopens = await database.needsReopening() }
                if reopens, isLooking || isReopening {
                    // A look is opening the file at the path now: the edit is written there
                    // after it (no write goes out meanwhile, so none lands in the file while the
                    // look makes it again with the list, which has the edit).
                    while isLooking || isReopening {
                        do { try await Task.sleep(for: .milliseconds(10)) } catch { return }
                    }
                    continue
                }
                failures += 1
                failureCount += 1
                lastError = error
                // The file at the path is not the one open (deleted, replaced, or a reopening
                // failed): the edit waits for it, and no look opens it while edits are queued;
                // open it now. If that works, the edit is written at once, and whoever waits for
                // it goes on waiting (a `flush` at the end of a program then saves rather than
                // gives up); if not, the status and the waiters get the reopening's reason.
                if reopens {
                    isLooking = true
                    await reopen(editsBefore: edits)
                    if await !database.needsReopening() { continue }
                } else {
                    status.value = .failed(error, attempts: failures)
                }
                resumeWaiters()
                let pause = Duration.milliseconds(min(50 << min(failures, 6), 2_000))
                do { try await Task.sleep(for: pause) } catch { break }
            }
        }
        guard pending.isEmpty else { return }
        status.value = .saved
        lastError = nil
        resumeWaiters()
        if looksAgain { lookForChanges() }
    }

    private func resumeWaiters() {
        let waiting = waiters
        waiters.removeAll()
        for waiter in waiting { waiter.resume() }
    }

    // MARK: Taking in other processes' commits

    /// Starts following other processes' commits: from the operating system's notices, with a
    /// slow look every 2 s (or `pollInterval`, if longer) in case a notice never comes; every
    /// `pollInterval` where there are no notices; `nil` never polls.
    func watch(events: Bool, pollInterval: Duration?, clock: any Clock<Duration>) {
        if events {
            watcher = FileChangeWatcher(files: [url, URL(fileURLWithPath: url.path + "-wal")]) {
                [weak self] in
                Task { @MainActor in self?.fileChanged() }
            }
        }
        isWatchingFileEvents = watcher != nil
        guard let pollInterval else { return }
        // With notices, a slow look as well: a file system may take a watch and never send a
        // notice (a network mount), and a look that finds nothing costs one pragma.
        let interval = watcher == nil ? pollInterval : max(pollInterval, .seconds(2))
        poller = Task { [weak self] in
            while !Task.isCancelled {
                do { try await clock.sleep(for: interval) } catch { return }
                self?.lookForChanges()
            }
        }
    }

    /// Looks now, and again after growing pauses for about a second and a half.
    ///
    /// A notice can come from the first bytes of a commit written to the log, and the commit becomes visible to
    /// readers only after SQLite has flushed it to disk, with no notice of its own. Each look
    /// costs one `PRAGMA data_version` when nothing changed.
    private func fileChanged() {
        lookForChanges()
        trailingLooks?.cancel()
        trailingLooks = Task { [weak self] in
            for pause in [2, 3, 5, 15, 25, 50, 100, 200, 400, 800] {
                do { try await Task.sleep(for: .milliseconds(pause)) } catch { return }
                self?.lookForChanges()
            }
        }
    }

    /// Looks for other processes' commits now, and takes them in.
    ///
    /// Called by the watcher; call it yourself to look without waiting for one.
    public func lookForChanges() {
        lookForChanges(force: false)
    }

    private func lookForChanges(force: Bool) {
        guard !isClosed else { return }
        // A look that must see the log (one before it was thrown away, after SQLite had already
        // said "changed") stays forced until it happens.
        forcesNextLook = forcesNextLook || force
        guard !isLooking, !isReopening, pending.isEmpty else {
            looksAgain = true
            return
        }
        looksAgain = false
        isLooking = true
        let editsBefore = edits
        let seen = self.seen
        let (force, whole) = (forcesNextLook, readsWholeNext)
        Task { [weak self, database] in
            if await database.needsReopening() {
                await self?.reopen(editsBefore: editsBefore)
                return
            }
            let result: Result<RemoteChanges<Element>?, PersistenceError>
            do throws(PersistenceError) {
                result = .success(
                    try await database.changes(after: seen, force: force, whole: whole))
            } catch {
                result = .failure(error)
            }
            await self?.takeIn(result, editsBefore: editsBefore)
        }
    }

    private func takeIn(
        _ result: Result<RemoteChanges<Element>?, PersistenceError>, editsBefore: Int
    )
        async
    {
        defer {
            isLooking = false
            if looksAgain { lookForChanges(force: true) }
        }
        let changes: RemoteChanges<Element>?
        switch result {
        case .success(let read):
            changes = read
            forcesNextLook = false
        case .failure(let error):
            forcesNextLook = true
            store?.postNotice("could not read other programs' changes: \(error)")
            return
        }
        guard let changes, let store else { return }
        // An edit made meanwhile may be one the rows read do not have yet: read again after it
        // (whole again, if these were the whole list).
        guard edits == editsBefore else {
            if case .whole = changes { readsWholeNext = true }
            looksAgain = true
            return
        }
        let completed: Bool
        switch changes {
        case .rows(let rows, let through, let problems):
            // The rows read hold this process's own entries too (see `changedRows`); only those
            // that change the list here are another process's edits to trace.
            let bringing = rows.filter { !Self.edits(bringing: $0, into: store).isEmpty }.count
            if bringing > 0 {
                tracer.record(
                    from: .persistence, to: .store,
                    "take in another process's edits (\(Element.counted(bringing)))")
            }
            completed = await applyInSlices(rows, editsBefore: editsBefore) { row in
                // Each row is an edit against the list as it is then.
                store.takeIn(Self.edits(bringing: row, into: store))
            }
            if completed { finish(through: through, problems: problems, in: store) }
        case .whole(let elements, let through, let problems):
            // Until it is applied whole, the next look reads whole too: a look that found the
            // log's history changed has forgotten the entries that told it so.
            readsWholeNext = true
            tracer.record(
                from: .persistence, to: .store,
                "take in the whole list (\(Element.counted(elements.count)))")
            let current = store.elements
            let difference = await Task.detached {
                ListDifference.changes(from: current, to: elements)
            }.value
            guard edits == editsBefore, store.elements == current else {
                looksAgain = true
                return
            }
            completed = await applyInSlices(difference, editsBefore: editsBefore) {
                store.takeIn([$0])
            }
            if completed {
                readsWholeNext = false
                finish(through: through, problems: problems, in: store)
            }
        }
        if !completed { looksAgain = true }
    }

    /// Opens the file now at the path after the one open was deleted or replaced: a deleted
    /// database is made again with this process's list, a replacing one is taken in whole.
    private func reopen(editsBefore: Int) async {
        isReopening = true
        defer {
            isReopening = false
            isLooking = false
            startWriting()
            if looksAgain { lookForChanges(force: true) }
        }
        guard let store else { return }
        // Edits queued now (when a write found the file not open) are in the list already.
        let queuedBefore = pending.count
        // Other processes' last commits to the old file, which this list may not have yet: taken
        // in first, so that a list made again from it keeps them. (Not with edits of this
        // process still queued: a row read back must never be older than one of them.)
        if queuedBefore == 0,
            case .rows(let rows, let through, _)? = try? await database.changes(
                after: seen, force: true),
            edits == editsBefore, pending.isEmpty
        {
            for row in rows { store.takeIn(Self.edits(bringing: row, into: store)) }
            seen = through
        }
        do throws(PersistenceError) {
            let reopened = try await database.reopen(keeping: store.elements)
            seen = reopened.through
            if reopened.outcome == .madeAgain {
                // Written with the list, which has them: writing them again would fail.
                pending.removeFirst(min(queuedBefore, pending.count))
            }
            reopenings += 1
            // A write or a reopening that failed for want of the file said so: that is over.
            failures = 0
            reopeningFailures = 0
            status.value = pending.isEmpty ? .saved : .pending
            switch reopened.outcome {
            case .madeAgain:
                store.postNotice(
                    "the database was deleted by another program (or replaced by an empty one); it was made again with the list open here"
                )
                return
            case .madeAgainElsewhere:
                store.postNotice(
                    "the database was deleted, and another program made it again with its list; that list is shown, and edits go to it"
                )
            case .replaced:
                store.postNotice(
                    "the database was replaced by another program; its list is shown, and edits go to it"
                )
            }
            let current = store.elements
            let target = reopened.list.elements
            let difference = await Task.detached {
                ListDifference.changes(from: current, to: target)
            }.value
            // An edit queued before or made meanwhile waits to be written to the new file: the
            // list is brought to the file's once it is, by reading the file whole.
            guard queuedBefore == 0, edits == editsBefore, store.elements == current,
                await applyInSlices(difference, editsBefore: editsBefore, { store.takeIn([$0]) })
            else {
                readsWholeNext = true
                looksAgain = true
                return
            }
        } catch {
            // Counted with the writes that failed for want of it, and told once in a row.
            status.value = .failed(error, attempts: max(failures, 1))
            if failures > 0 { lastError = error }
            reopeningFailures += 1
            if reopeningFailures == 1 {
                store.postNotice(
                    "the database was deleted or replaced, and could not be opened again: \(error)")
            }
        }
    }

    private func finish(through: Int64, problems: [String], in store: ListStore<Element>) {
        seen = through
        for problem in problems {
            store.postNotice("skipped a row another program wrote: \(problem)")
        }
    }

    /// Applies `items` one at a time through `apply`, yielding the main actor every few
    /// milliseconds; stops (returning `false`) if this process edits meanwhile.
    private func applyInSlices<Item>(
        _ items: [Item], editsBefore: Int, _ apply: (Item) -> Void
    ) async -> Bool {
        var slice = ContinuousClock.now
        for item in items {
            if ContinuousClock.now - slice > .milliseconds(4) {
                await Task.yield()
                guard edits == editsBefore else { return false }
                slice = .now
            }
            apply(item)
        }
        return true
    }

    /// The edits that make the store's list agree with `row`: its removal, or its insertion,
    /// replacement and move to right after its predecessor.
    static func edits(bringing row: RemoteRow<Element>, into store: ListStore<Element>)
        -> [ListEdit<Element>]
    {
        let position = store.position(of: row.id)
        guard let element = row.element else {
            guard let position, let current = store.element(withID: row.id) else { return [] }
            return [.remove(current, at: position)]
        }
        let after = row.predecessor.flatMap(store.position(of:))
        guard let position, let current = store.element(withID: row.id) else {
            return [
                .insert(
                    element, at: after.map { $0 + 1 } ?? (row.predecessor == nil ? 0 : store.count))
            ]
        }
        var edits: [ListEdit<Element>] = []
        if current != element { edits.append(.replace(old: current, new: element)) }
        let currentPredecessor = position > 0 ? store.elements[position - 1].id : nil
        if currentPredecessor != row.predecessor, row.predecessor == nil || after != nil {
            let destination = after.map { $0 < position ? $0 + 1 : $0 } ?? 0
            edits.append(.move(row.id, from: position, to: destination))
        }
        return edits
    }
}
