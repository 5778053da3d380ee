public import MVCObservation
public import MVCTracing

/// Saves the newest version of a document a short while after it changes, so that a burst of
/// edits costs one write, never overwrites what another process saved, and writes whatever is
/// pending on ``flush()``.
///
/// The decisions are ``SaverState``'s (a pure state machine); this class only runs its effects:
/// the timer, the writes off the main actor, the checks of the file, and publishing ``status``.
///
/// **Several processes.** The saver keeps the snapshot of the file it last read or wrote. Each
/// write is a locked read–check–write (see `DocumentFile.save(_:over:merge:)`): if another
/// process saved since, the versions are merged with the `merge` function given at creation, and the merge is written. With
/// ``watch(every:)`` the saver also checks the file periodically. Either way, when the file turns
/// out to hold changes this process has not seen, the owner's ``reconcile`` is called on the main
/// actor to take them in (a store turns them into ordinary change events).
///
/// Call ``flush()`` before the program exits.
@MainActor
public final class CoalescingSaver<Document: Codable & Equatable & Sendable> {
    /// Takes the file's newer version in: given the version both sides last agreed on and the
    /// file's, plus sentences about conflicts, returns the owner's version after taking the file's
    /// changes in (the owner's own unsaved changes kept).
    public typealias Reconcile =
        @MainActor (_ base: Document?, _ file: Document, _ notices: [String]) -> Document

    /// The file written to.
    public let file: DocumentFile<Document>
    /// How long after a change the write happens, unless more changes come first.
    public let delay: Duration
    /// Where saving stands; a repeated failure is a new value (its attempt count grows).
    ///
    /// Only the saver writes it: others get this read-only view.
    public var status: ReadOnlyProperty<SaveStatus> { statusProperty.readOnly }
    private let statusProperty = ObservableProperty<SaveStatus>(.saved)
    /// How many writes have completed successfully.
    public private(set) var writeCount = 0
    /// Called when the file holds changes this process has not seen; see ``Reconcile``.
    public var reconcile: Reconcile?

    private let clock: any Clock<Duration>
    private let merge: DocumentFile<Document>.Merge
    private let tracer: HopTracer
    private var state = SaverState<Document>()
    private var snapshot: DocumentSnapshot<Document>
    private var timer: Task<Void, Never>?
    private var watcher: Task<Void, Never>?
    private var flushWaiters: [CheckedContinuation<PersistenceError?, Never>] = []

    /// Creates a saver for `file`.
    ///
    /// - Parameters:
    ///   - file: Where to write.
    ///   - snapshot: The file as this process read it; a save merges changes made since.
    ///   - delay: How long to wait after a change for more changes before writing.
    ///   - clock: The clock the delay and the watch interval are measured on; a test passes a
    ///     clock it advances by hand.
    ///   - tracer: Told of each decision to write, each write and its result, and each merge.
    ///   - merge: Combines this process's version with another process's (three-way).
    public init(
        file: DocumentFile<Document>,
        snapshot: DocumentSnapshot<Document> = .missing,
        delay: Duration = .milliseconds(300),
        clock: any Clock<Duration> = ContinuousClock(),
        tracer: HopTracer = .disabled,
        merge: @escaping DocumentFile<Document>.Merge
    ) {
        self.file = file
        self.snapshot = snapshot
        self.delay = delay
        self.clock = clock
        self.tracer = tracer
        self.merge = merge
    }

    isolated deinit {
        watcher?.cancel()
    }

    /// Whether a version is waiting to be written or being written.
    public var hasPendingChanges: Bool { state.hasUnsavedChanges }

    /// Takes `document` as the newest version and makes sure a write follows.
    public func documentChanged(_ document: Document) {
        run(state.documentChanged(document))
    }

    /// Writes what is pending now, and waits until nothing is pending or being written.
    ///
    /// - Throws: The ``PersistenceError`` of the last write, if it failed; its version stays
    ///   pending.
    public func flush() async throws(PersistenceError) {
        let error = await withCheckedContinuation { continuation in
            flushWaiters.append(continuation)
            run(state.flushRequested())
        }
        if let error { throw error }
    }

    /// Checks the file every `interval` for another process's save, until the saver is released.
    ///
    /// - Parameter interval: How often to look; the check is cheap when nothing changed (the
    ///   file's identity is compared before any byte is read).
    public func watch(every interval: Duration) {
        watcher?.cancel()
        let clock = self.clock
        watcher = Task { [weak self] in
            while !Task.isCancelled {
                do { try await clock.sleep(for: interval) } catch { return }
                guard let self else { return }
                self.run(self.state.checkDue())
            }
        }
    }

    // MARK: Running effects

    private func run(_ effects: [SaverState<Document>.Effect]) {
        for effect in effects {
            switch effect {
            case .startTimer:
                startTimer()
            case .cancelTimer:
                timer?.cancel()
                timer = nil
            case .write(let document):
                startWrite(document)
            case .publishStatus:
                statusProperty.value = state.status
            case .finishFlushes(let error):
                let waiters = flushWaiters
                flushWaiters.removeAll()
                for waiter in waiters { waiter.resume(returning: error) }
            case .checkFile:
                startCheck()
            }
        }
    }

    private func startTimer() {
        let clock = self.clock
        let delay = self.delay
        // The timer holds the saver strongly: a pending version keeps its saver alive until it is
        // written. (A version left pending by a failed write has no timer; call flush() before
        // letting the saver go.) The task ends, and lets go.
        timer = Task {
            do { try await clock.sleep(for: delay) } catch { return }
            self.timer = nil
            self.run(self.state.timerFired())
        }
    }

    private func startWrite(_ document: Document) {
        tracer.record(from: .persistence, to: .disk, "write \(file.path)")
        let file = self.file
        let snapshot = self.snapshot
        let merge = self.merge
        Task {
            do throws(PersistenceError) {
                let outcome = try await file.save(document, over: snapshot, merge: merge)
                self.writeSucceeded(outcome, wrote: document)
            } catch {
                self.tracer.record(from: .disk, to: .persistence, "write failed: \(error)")
                self.run(self.state.writeFailed(error))
            }
        }
    }

    private func writeSucceeded(_ outcome: SaveOutcome<Document>, wrote document: Document) {
        snapshot = outcome.snapshot
        writeCount += 1
        if let merged = outcome.merged {
            tracer.record(
                from: .disk, to: .persistence, "written, merged with another process's save")
            // Before the state machine may start the next write: that write must already hold
            // what the merge brought in, or the next merge would read it as deleted here.
            takeIn(merged.document, base: document, notices: merged.notices)
        } else {
            tracer.record(from: .disk, to: .persistence, "written")
        }
        run(state.writeSucceeded())
    }

    private func startCheck() {
        let file = self.file
        let snapshot = self.snapshot
        Task {
            let result: Result<DocumentSnapshot<Document>?, PersistenceError>
            do throws(PersistenceError) {
                result = .success(try await file.readSnapshot(ifChangedSince: snapshot))
            } catch {
                result = .failure(error)
            }
            self.fileChecked(result)
        }
    }

    private func fileChecked(_ result: Result<DocumentSnapshot<Document>?, PersistenceError>) {
        switch result {
        case .success(let changed?) where reconcile != nil:
            let base = snapshot.document
            snapshot = changed
            if let document = changed.document {
                tracer.record(from: .disk, to: .persistence, "another process saved \(file.path)")
                // Before a due write may start, for the same reason as after a merged write.
                takeIn(document, base: base, notices: [])
            }
        case .success:
            // Unchanged, or nobody to take the change in: the snapshot stays, so the next save
            // merges what the other process saved instead of taking it as agreed on.
            break
        case .failure(let error):
            // The next write meets the same problem and reports it; a check only tells the trace.
            tracer.record(from: .disk, to: .persistence, "check failed: \(error)")
        }
        run(state.fileChecked())
    }

    /// Hands the file's version to the owner and makes its answer the pending version, so that
    /// a pending version never lacks what the file holds (the next merge would read that as a
    /// deletion).
    private func takeIn(_ fileDocument: Document, base: Document?, notices: [String]) {
        guard let reconcile else {
            // No owner to tell: at least keep the pending version from undoing the file's changes.
            if let pending = state.pending {
                run(state.documentChanged(merge(base, pending, fileDocument).document))
            }
            return
        }
        let current = reconcile(base, fileDocument, notices)
        if state.pending != nil || current != fileDocument {
            run(state.documentChanged(current))
        }
    }
}
