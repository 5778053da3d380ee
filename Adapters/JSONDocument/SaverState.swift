public import MVCListStore

/// The decisions of a ``CoalescingSaver``, as a pure state machine: each method is named for
/// what happened, updates the state, and returns the effects for the saver to run.
///
/// No I/O, no tasks, no clock: every transition is tested directly. The saver is always in one
/// ``Stage``; what it does with the file is the stage, so two writes, or a write and a look,
/// cannot both be running, and an event that does not fit the stage (a write finishing that was
/// never started, a timer firing after it was cancelled or replaced) changes nothing.
///
/// The rules:
/// - A change replaces the pending version; the first change after a quiet spell starts the
///   timer, so a burst of changes is one write.
/// - A timer or flush that comes during a write or a look is carried out when it ends.
/// - **The merge base** is the file as this process last read or wrote it (``base``). It moves
///   to what a write wrote, to what a look found, and to "no file" when the file was deleted
///   (keeping the document it held, to merge a file made again against); a failed write leaves
///   it where it was. The owner merges against what ``FileLineage`` says for the file found.
/// - **Another process's save is taken in before the next write.** When a write merged, or a
///   look found the file changed, the owner takes the file's version in
///   (``Effect/reconcile(base:file:notices:)``) and its answer (``reconciled(_:)``) becomes the
///   pending version before anything else is written: a pending version that lacked the file's
///   changes would read them as deleted here at the next merge.
/// - **A deleted file** is not a deletion of the list: the owner is told, and the next change
///   writes the whole list again (a write that finds the file gone says so too).
/// - A write that reached the file but could not be confirmed on disk (a failed folder flush)
///   is a written version: the base moves, nothing stays pending, and the status says
///   ``/MVCListStore/SaveStatus/unconfirmed(_:)`` until a later write is confirmed.
/// - A failed write keeps its version pending (unless a newer one came meanwhile), reports the
///   failure with a count of failures in a row, and is tried again on the next change or flush.
/// - A flush cancels the timer, writes what is pending, and finishes when nothing is pending or
///   being written, with the last write's failure if it failed (it does not retry forever).
public struct SaverState<Document: Equatable & Sendable>: Equatable, Sendable {
    /// What the saver is doing.
    public enum Stage: Equatable, Sendable {
        /// Nothing: no timer runs, and the file is free.
        case idle
        /// The timer of this generation runs; when it fires, the pending version is written.
        case waiting(timer: Int)
        /// This version is being written.
        case writing(Document)
        /// The file is being read for another process's save; `then` follows.
        case looking(then: Next)
        /// The owner is taking in the file's version, `file`; `then` follows.
        case reconciling(file: Document, then: Next)
    }

    /// What follows a look or a reconcile.
    public enum Next: Equatable, Sendable {
        /// Whatever the pending version and a flush call for.
        case nothing
        /// The timer of this generation still runs.
        case timer(Int)
        /// The timer fired meanwhile: write.
        case write
    }

    /// An effect the saver runs.
    public enum Effect: Equatable, Sendable {
        /// Start a timer of this generation; ``timerFired(generation:)`` follows after the delay.
        case startTimer(generation: Int)
        /// Cancel the running timer.
        case cancelTimer
        /// Write this version, merging with the file if it no longer holds `base`;
        /// ``writeSucceeded(_:)`` or ``writeFailed(_:)`` follows.
        case write(Document, over: DocumentSnapshot<Document>)
        /// Look whether the file changed since `base`; ``lookedAtFile(_:)`` or
        /// ``lookFailed(_:)`` follows.
        case lookAtFile(against: DocumentSnapshot<Document>)
        /// Ask the owner to take the file's version in, merged against `base` (see
        /// ``FileLineage``); ``reconciled(_:)`` follows with the owner's version afterwards.
        case reconcile(base: Document?, file: Document, notices: [String])
        /// Tell the owner something that is not a change of the document.
        case notify(String)
        /// Publish the saver's ``status``.
        case publishStatus
        /// Finish every waiting flush, with this failure or none.
        case finishFlushes(PersistenceError?)
    }

    /// A write's failure, and how many writes failed in a row.
    public struct Failure: Equatable, Sendable {
        /// What went wrong with the last write.
        public var error: PersistenceError
        /// How many writes failed in a row.
        public var attempts: Int
    }

    /// What the saver is doing.
    public private(set) var stage: Stage = .idle
    /// The newest version not yet handed to a write.
    public private(set) var pending: Document?
    /// The file as this process last read or wrote it: the base of the next merge.
    public private(set) var base: DocumentSnapshot<Document>
    /// Whether a flush waits.
    public private(set) var isFlushing = false
    /// The failure of the last write; `nil` after a success.
    public private(set) var failure: Failure?
    /// Why the last write could not be confirmed on disk, if it could not.
    public private(set) var unconfirmed: String?
    private var timerGenerations = 0
    /// Why the last look of the file failed, told once.
    private var lookProblem: String?
    /// Whether a look came due while the file was busy; it runs once the file is free.
    private var lookWaits = false

    /// Creates the state of a saver with nothing to write, whose file held `base` when read.
    public init(base: DocumentSnapshot<Document> = .missing) {
        self.base = base
    }

    /// The version being written, if a write runs.
    public var writing: Document? {
        if case .writing(let document) = stage { document } else { nil }
    }

    /// Whether a version waits to be written or is being written.
    public var hasUnsavedChanges: Bool { pending != nil || writing != nil }

    /// Where saving stands.
    public var status: SaveStatus {
        if let failure { return .failed(failure.error, attempts: failure.attempts) }
        if hasUnsavedChanges { return .pending }
        if let unconfirmed { return .unconfirmed(unconfirmed) }
        return .saved
    }

    // MARK: Events

    /// A new version of the document was made.
    public mutating func documentChanged(_ document: Document) -> [Effect] {
        publishingStatus { state in
            state.pending = document
            guard state.stage == .idle else { return [] }
            return state.startTimer()
        }
    }

    /// The timer of `generation` ran out; a timer cancelled or replaced since is ignored.
    public mutating func timerFired(generation: Int) -> [Effect] {
        publishingStatus { state in
            switch state.stage {
            case .waiting(generation):
                return state.startWrite()
            case .looking(then: .timer(generation)):
                state.stage = .looking(then: .write)
            case .reconciling(let file, then: .timer(generation)):
                state.stage = .reconciling(file: file, then: .write)
            default:
                break  // stale: cancelled after it had already run out, or replaced
            }
            return []
        }
    }

    /// A flush was asked for: write what is pending now.
    public mutating func flushRequested() -> [Effect] {
        publishingStatus { state in
            if state.stage == .idle, state.pending == nil {
                return [.finishFlushes(state.failure?.error)]
            }
            state.isFlushing = true
            switch state.stage {
            case .idle:
                return state.startWrite()
            case .waiting:
                return [.cancelTimer] + state.startWrite()
            case .looking(then: .timer):
                state.stage = .looking(then: .nothing)
                return [.cancelTimer]
            case .reconciling(let file, then: .timer):
                state.stage = .reconciling(file: file, then: .nothing)
                return [.cancelTimer]
            case .writing, .looking, .reconciling:
                return []
            }
        }
    }

    /// The running write succeeded; `outcome` says what the file holds now.
    public mutating func writeSucceeded(_ outcome: SaveOutcome<Document>) -> [Effect] {
        publishingStatus { state in
            guard case .writing(let written) = state.stage else { return [] }  // none started
            state.base = outcome.snapshot
            state.failure = nil
            state.lookProblem = nil
            state.unconfirmed =
                if case .unconfirmed(let reason) = outcome.durability { reason } else { nil }
            let effects: [Effect] =
                outcome.recreatedDeletedFile ? [.notify(SaverNotice.recreated)] : []
            if let merged = outcome.merged {
                // Before anything else is written: see "another process's save" above.
                state.stage = .reconciling(file: merged.document, then: .nothing)
                return effects
                    + [.reconcile(base: written, file: merged.document, notices: merged.notices)]
            }
            return effects + state.fileBecameFree()
        }
    }

    /// The running write failed; its version stays pending unless a newer one is.
    public mutating func writeFailed(_ error: PersistenceError) -> [Effect] {
        publishingStatus { state in
            guard case .writing(let failed) = state.stage else { return [] }  // none started
            state.stage = .idle
            if state.pending == nil { state.pending = failed }
            state.failure = Failure(error: error, attempts: (state.failure?.attempts ?? 0) + 1)
            guard state.isFlushing else { return [] }
            // A flush ends with the failure instead of retrying forever; the version stays pending.
            state.isFlushing = false
            return [.finishFlushes(error)]
        }
    }

    /// The periodic look for another process's save is due; skipped while the file is busy.
    public mutating func lookDue() -> [Effect] {
        switch stage {
        case .idle:
            stage = .looking(then: .nothing)
        case .waiting(let timer):
            stage = .looking(then: .timer(timer))
        case .writing, .looking, .reconciling:
            // Run once the file is free: another program's save in the middle of this one's
            // would otherwise go unseen until the file changed again.
            lookWaits = true
            return []
        }
        return [.lookAtFile(against: base)]
    }

    /// The look of the file ended with `result`.
    public mutating func lookedAtFile(_ result: FileCheck<Document>) -> [Effect] {
        publishingStatus { state in
            guard case .looking(let then) = state.stage else { return [] }  // none started
            state.lookProblem = nil
            switch result {
            case .unchanged(let snapshot, _):
                state.base = snapshot
            case .changed(let snapshot):
                let before = state.base
                let lineage = before.lineage(of: snapshot.history)
                state.base = snapshot.knowing(before.lineage, first: lineage == .older)
                if let file = snapshot.document {
                    state.stage = .reconciling(file: file, then: then)
                    let base = lineage.mergeBase(last: before.document, file: file)
                    return [.reconcile(base: base, file: file, notices: lineage.notices)]
                }
            case .deleted:
                state.base = state.base.deleted
                return [.notify(SaverNotice.deleted)] + state.proceed(then)
            }
            return state.proceed(then)
        }
    }

    /// The look of the file failed: another program left something there that cannot be read.
    ///
    /// The user is told (once for each reason), and the version open here becomes pending, so
    /// the next write, or the flush at the end, meets the problem and reports it: a program
    /// that edits nothing more does not end with its list in no file.
    public mutating func lookFailed(_ reason: String) -> [Effect] {
        publishingStatus { state in
            guard case .looking(let then) = state.stage else { return [] }  // none started
            if state.pending == nil { state.pending = state.base.document }
            guard reason != state.lookProblem else { return state.proceed(then) }
            state.lookProblem = reason
            return [.notify(SaverNotice.unreadable(reason))] + state.proceed(then)
        }
    }

    /// The owner took the file's version in; `current` is the owner's version now.
    public mutating func reconciled(_ current: Document) -> [Effect] {
        publishingStatus { state in
            guard case .reconciling(let file, let then) = state.stage else { return [] }
            // The owner's unsaved changes, or changes the file lacks: write them.
            if state.pending != nil || current != file { state.pending = current }
            return state.proceed(then)
        }
    }

    // MARK: Decisions

    /// Runs `body`, and publishes the status first if it changed.
    private mutating func publishingStatus(_ body: (inout Self) -> [Effect]) -> [Effect] {
        let before = status
        let effects = body(&self)
        return status == before ? effects : [.publishStatus] + effects
    }

    private mutating func startTimer() -> [Effect] {
        timerGenerations += 1
        stage = .waiting(timer: timerGenerations)
        return [.startTimer(generation: timerGenerations)]
    }

    private mutating func startWrite() -> [Effect] {
        guard let document = pending else { return fileBecameFree() }
        pending = nil
        stage = .writing(document)
        return [.write(document, over: base)]
    }

    /// What follows a look or a reconcile, given what happened meanwhile.
    private mutating func proceed(_ then: Next) -> [Effect] {
        switch then {
        case .nothing:
            return fileBecameFree()
        case .write:
            return startWrite()
        case .timer(let timer):
            guard !isFlushing, pending != nil else { return [.cancelTimer] + fileBecameFree() }
            stage = .waiting(timer: timer)
            return waitingLook()
        }
    }

    /// What follows when the file is free and no timer runs; and, whenever the file is left free
    /// (idle, or waiting for a timer), the look that came due while it was busy.
    private mutating func fileBecameFree() -> [Effect] {
        stage = .idle
        if pending != nil {
            return isFlushing ? startWrite() : startTimer() + waitingLook()
        }
        guard isFlushing else { return waitingLook() }
        isFlushing = false
        return [.finishFlushes(failure?.error)] + waitingLook()
    }

    /// The look that came due while the file was busy, if one did.
    private mutating func waitingLook() -> [Effect] {
        guard lookWaits else { return [] }
        lookWaits = false
        return lookDue()
    }
}

/// The sentences a saver tells its owner about the file (``SaverState/Effect/notify(_:)``).
package enum SaverNotice {
    /// The file was found deleted by a look.
    package static let deleted =
        "the file was deleted by another program; the document is still open here, and the next change writes it to the file again"
    /// A look found something there that cannot be read.
    package static func unreadable(_ reason: String) -> String {
        "another program left something at the file that cannot be read (\(reason)); the list open here is kept, and is written again at the next save, or beside the file when the program ends if it cannot be"
    }
    /// The file went back to an older copy of the list.
    package static let older =
        "the file went back to an older copy of this list; nothing the copy lacks is taken as deleted, and the list open here replaces it"
    /// The file holds a version that did not come from the one open here.
    package static let unrelated =
        "the file now holds a list that did not come from the one open here (a copy edited elsewhere, or another list); the two were merged, keeping the rows of both"
    /// A write found the file deleted and made it anew.
    package static let recreated =
        "the file had been deleted by another program; it was written again with the open document"
}
