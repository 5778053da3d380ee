import Foundation
public import MVCListStore
public import MVCObservation
public import MVCTracing

/// Saves the newest version of a document a short while after it changes, so that a burst of
/// edits costs one write, never overwrites what another process saved, and writes whatever is
/// pending on ``flush()``.
///
/// The decisions are ``SaverState``'s (a pure state machine); this class only runs its effects:
/// the timer, the writes off the main actor, the looks at the file, and publishing ``status``.
///
/// **Several processes.** Each write merges what another process saved since the saver's
/// snapshot, with the `merge` given at creation (see `DocumentFile.save(_:over:merge:)`), and
/// ``watchForSaves(fallbackInterval:)`` or ``watch(every:)`` look at the file between writes.
/// Changes this process has not seen go to the owner's ``reconcile``, on the main actor.
///
/// Call ``flushAndLook()`` before the program exits.
@MainActor
public final class CoalescingSaver<Document: Codable & Equatable & Sendable> {
    /// Takes the file's newer version in: given the version to merge against (see
    /// ``FileLineage``) and the file's, plus sentences about conflicts, returns the owner's
    /// version after taking the file's changes in (its own unsaved changes kept).
    ///
    /// It is asynchronous so that the owner can merge and compare off the main actor (a long list
    /// takes a while) and apply the result in short steps; the saver waits for its answer, and
    /// changes made meanwhile are written after it.
    public typealias Reconcile =
        @MainActor (_ base: Document?, _ file: Document, _ notices: [String]) async -> Document

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

    /// Told things about the file that are not changes of the document (it was deleted by
    /// another program, or written again after that), each a sentence.
    public var notify: (@MainActor (String) -> Void)?

    private let clock: any Clock<Duration>
    private let merge: DocumentFile<Document>.Merge
    private let tracer: HopTracer
    private var state: SaverState<Document>
    private var timer: Task<Void, Never>?
    private var watcher: Task<Void, Never>?
    private var fileWatcher: FileChangeWatcher?
    private var flushWaiters: [CheckedContinuation<PersistenceError?, Never>] = []

    /// How long a saver waits after a change for more before it writes, unless told: long
    /// enough that a burst of typing is one write, short enough that a kill a moment after an
    /// edit seldom loses it (the signal handlers flush at once).
    public static var defaultDelay: Duration { .milliseconds(300) }

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
        delay: Duration = CoalescingSaver.defaultDelay,
        clock: any Clock<Duration> = ContinuousClock(),
        tracer: HopTracer = .disabled,
        merge: @escaping DocumentFile<Document>.Merge
    ) {
        self.file = file
        self.state = SaverState(base: snapshot)
        self.delay = delay
        self.clock = clock
        self.tracer = tracer
        self.merge = merge
    }

    isolated deinit {
        watcher?.cancel()
        fileWatcher?.cancel()
    }

    /// Whether a version is waiting to be written or being written.
    public var hasPendingChanges: Bool { state.hasUnsavedChanges }

    /// Takes `document` as the newest version and makes sure a write follows.
    public func documentChanged(_ document: Document) {
        run(state.documentChanged(document))
    }

    /// Writes what is pending now, and waits until nothing is pending or being written.
    ///
    /// - Throws: The ``/MVCListStore/PersistenceError`` of the last write, if it failed; its version stays
    ///   pending.
    public func flush() async throws(PersistenceError) {
        let error = await withCheckedContinuation { continuation in
            flushWaiters.append(continuation)
            run(state.flushRequested())
        }
        if let error { throw error }
    }

    /// Writes what is pending, then looks at the file once more and finishes what that calls for:
    /// the last call before a program ends.
    ///
    /// A program about to end may not have heard yet that the file changed (the operating
    /// system's notice, or the next poll, comes after its last command). With nothing pending,
    /// ``flush()`` writes nothing, and an older copy put back just before would be left as the
    /// file, lacking rows this program saved. This looks first: an older copy is replaced, another
    /// process's save is taken in (and written back if the list here differs), and a file that
    /// cannot be read fails the flush, as a write would.
    ///
    /// - Throws: The ``/MVCListStore/PersistenceError`` of the last write, if it failed.
    public func flushAndLook() async throws(PersistenceError) {
        try await flush()
        run(state.lookDue())
        try await flush()
    }

    /// Looks for another process's save as soon as the operating system says the file changed
    /// (see ``FileChangeWatcher``), until the saver is released; where the system cannot say,
    /// looks every `fallbackInterval` instead.
    ///
    /// A file named through a symbolic link is watched at the link and at its target as the
    /// link points now: saves replace the target, in the target's folder.
    ///
    /// - Returns: Whether the system's notices are used (`false`: polling).
    @discardableResult
    public func watchForSaves(fallbackInterval: Duration = .milliseconds(500)) -> Bool {
        fileWatcher?.cancel()
        let target = (try? AtomicFile.resolvedPath(file.url)).map { URL(fileURLWithPath: $0) }
        let files = [file.url] + [target].compactMap { $0 }.filter { $0.path != file.url.path }
        fileWatcher = FileChangeWatcher(files: files) { [weak self] in
            Task { @MainActor in self?.lookSoon() }
        }
        if fileWatcher == nil { watch(every: fallbackInterval) }
        return fileWatcher != nil
    }

    /// Looks at the file now, or, if a write or look is under way (it may have read the file
    /// before this change), as soon as it ends: the state remembers a look that came due.
    private func lookSoon() {
        run(state.lookDue())
    }

    /// Checks the file every `interval` for another process's save, until the saver is released.
    ///
    /// - Parameter interval: How often to look; the look is cheap when nothing changed (the
    ///   file's identity is compared before any byte is read).
    public func watch(every interval: Duration) {
        watcher?.cancel()
        let clock = self.clock
        watcher = Task { [weak self] in
            while !Task.isCancelled {
                do { try await clock.sleep(for: interval) } catch { return }
                guard let self else { return }
                self.run(self.state.lookDue())
            }
        }
    }

    // MARK: Running effects

    private func run(_ effects: [SaverState<Document>.Effect]) {
        for effect in effects {
            switch effect {
            case .startTimer(let generation):
                startTimer(generation)
            case .cancelTimer:
                timer?.cancel()
                timer = nil
            case .write(let document, let base):
                startWrite(document, over: base)
            case .lookAtFile(let base):
                startLook(against: base)
            case .reconcile(let base, let fileDocument, let notices):
                // The version agreed on before is let go off the main actor once taken in: it is
                // held in a box the task empties, not captured (the task would free it here).
                let agreed = Box(base)
                Task {
                    let current = await takeIn(fileDocument, base: agreed.value, notices: notices)
                    run(state.reconciled(current))
                    let replaced = agreed.value.take()
                    Task.detached(priority: .background) { withExtendedLifetime(replaced) {} }
                }
            case .notify(let message):
                tracer.record(from: .persistence, to: .store, message)
                notify?(message)
            case .publishStatus:
                statusProperty.value = state.status
            case .finishFlushes(let error):
                let waiters = flushWaiters
                flushWaiters.removeAll()
                for waiter in waiters { waiter.resume(returning: error) }
            }
        }
    }

    private func startTimer(_ generation: Int) {
        let clock = self.clock
        let delay = self.delay
        // The timer holds the saver strongly: a pending version keeps its saver alive until it is
        // written. (A version left pending by a failed write has no timer; call flushAndLook()
        // before letting the saver go.) The task ends, and lets go. A timer cancelled after its sleep
        // ended still reports, with its generation, and the state ignores it.
        timer = Task {
            do { try await clock.sleep(for: delay) } catch { return }
            self.run(self.state.timerFired(generation: generation))
        }
    }

    private func startWrite(_ document: Document, over base: DocumentSnapshot<Document>) {
        tracer.record(from: .persistence, to: .disk, "write \(file.path)")
        let file = self.file
        let merge = self.merge
        Task {
            do throws(PersistenceError) {
                let outcome = try await file.save(document, over: base, merge: merge)
                self.writeCount += 1
                self.tracer.record(from: .disk, to: .persistence, Self.describe(outcome))
                self.run(self.state.writeSucceeded(outcome))
            } catch {
                self.tracer.record(from: .disk, to: .persistence, "write failed: \(error)")
                self.run(self.state.writeFailed(error))
            }
        }
    }

    private static func describe(_ outcome: SaveOutcome<Document>) -> String {
        var words =
            outcome.merged == nil ? "written" : "written, merged with another process's save"
        if case .unconfirmed(let reason) = outcome.durability {
            words += ", not confirmed on disk: \(reason)"
        }
        return words
    }

    private func startLook(against base: DocumentSnapshot<Document>) {
        let file = self.file
        Task {
            do throws(PersistenceError) {
                let result = try await file.check(against: base)
                let seen: String? =
                    switch result {
                    case .changed: "another process saved \(file.path)"
                    case .unchanged(_, reread: true):
                        "\(file.path) was touched, its contents are unchanged"
                    case .unchanged, .deleted: nil
                    }
                if let seen { self.tracer.record(from: .disk, to: .persistence, seen) }
                // The version it replaces is let go off the main actor: freeing a long list's
                // values one by one takes a while.
                let replaced = self.state.base
                self.run(self.state.lookedAtFile(result))
                Task.detached(priority: .background) { withExtendedLifetime(replaced) {} }
            } catch {
                self.tracer.record(from: .disk, to: .persistence, "look failed: \(error)")
                self.run(self.state.lookFailed("\(error)"))
            }
        }
    }

    /// Hands the file's version to the owner; returns the owner's version afterwards, which
    /// becomes the pending version if it differs from the file's.
    private func takeIn(_ fileDocument: Document, base: Document?, notices: [String]) async
        -> Document
    {
        guard let reconcile else {
            // No owner to take it in: tell what there is to tell, and at least keep the pending
            // version from undoing the file's changes.
            for notice in notices { notify?(notice) }
            guard let pending = state.pending else { return fileDocument }
            return merge(base, pending, fileDocument).document
        }
        return await reconcile(base, fileDocument, notices)
    }
}

/// A value a task can let go of before it ends.
private final class Box<Value> {
    var value: Value?
    init(_ value: Value?) { self.value = value }
}
