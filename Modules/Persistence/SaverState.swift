/// The decisions of a ``CoalescingSaver``, as a pure state machine: each method is named for
/// what happened, updates the state, and returns the effects for the saver to run.
///
/// No I/O, no tasks, no clock: every transition is tested directly. Every state × event pair is
/// decided; an event that cannot happen in a state (a timer firing that was never started, a write
/// finishing that was never started) is named as such in the code and changes nothing.
///
/// The rules:
/// - A change replaces the pending version; the first change after a quiet spell starts the
///   timer, so a burst of changes is one write.
/// - The saver does one thing with the file at a time: a write, or a check for another process's
///   save. A timer or flush that comes during one is carried out when it ends.
/// - A failed write keeps its version pending (unless a newer one came meanwhile), reports the
///   failure with a count of failures in a row, and is tried again on the next change or flush.
/// - A flush cancels the timer, writes what is pending, and finishes when nothing is pending or
///   being written, with the last write's failure if it failed (it does not retry forever).
public struct SaverState<Document: Equatable & Sendable>: Equatable, Sendable {
    /// An effect the saver runs.
    public enum Effect: Equatable, Sendable {
        /// Start the timer; ``timerFired()`` follows after the delay.
        case startTimer
        /// Cancel the running timer.
        case cancelTimer
        /// Write this version; ``writeSucceeded()`` or ``writeFailed(_:)`` follows.
        case write(Document)
        /// Publish the saver's ``status``.
        case publishStatus
        /// Finish every waiting flush, with this failure or none.
        case finishFlushes(PersistenceError?)
        /// Read the file to see whether another process saved; ``fileChecked()`` follows.
        case checkFile
    }

    /// A write's failure, and how many writes failed in a row.
    public struct Failure: Equatable, Sendable {
        /// What went wrong with the last write.
        public var error: PersistenceError
        /// How many writes failed in a row.
        public var attempts: Int
    }

    /// The newest version not yet handed to a write.
    public private(set) var pending: Document?
    /// The version being written, if a write runs.
    public private(set) var writing: Document?
    /// Whether the timer runs.
    public private(set) var isTimerRunning = false
    /// Whether the timer ran out while the file was busy, so a write is due when it is free.
    public private(set) var isWriteDue = false
    /// Whether a flush waits.
    public private(set) var isFlushing = false
    /// Whether a check of the file runs.
    public private(set) var isCheckingFile = false
    /// The failure of the last write; `nil` after a success.
    public private(set) var failure: Failure?

    /// Creates the state of a saver with nothing to write.
    public init() {}

    /// Whether a version waits to be written or is being written.
    public var hasUnsavedChanges: Bool { pending != nil || writing != nil }

    /// Where saving stands.
    public var status: SaveStatus {
        if let failure { return .failed(failure.error, attempts: failure.attempts) }
        return hasUnsavedChanges ? .pending : .saved
    }

    private var isFileBusy: Bool { writing != nil || isCheckingFile }

    // MARK: Events

    /// A new version of the document was made.
    public mutating func documentChanged(_ document: Document) -> [Effect] {
        let wasSaved = status == .saved
        pending = document
        var effects: [Effect] = wasSaved ? [.publishStatus] : []
        if !isFileBusy && !isTimerRunning && !isWriteDue {
            isTimerRunning = true
            effects.append(.startTimer)
        }
        return effects
    }

    /// The timer ran out.
    public mutating func timerFired() -> [Effect] {
        guard isTimerRunning else { return [] }  // impossible: a cancelled timer does not fire
        isTimerRunning = false
        isWriteDue = true
        return isFileBusy ? [] : startDueWrite()
    }

    /// A flush was asked for: write what is pending now.
    public mutating func flushRequested() -> [Effect] {
        var effects: [Effect] = []
        if isTimerRunning {
            isTimerRunning = false
            effects.append(.cancelTimer)
        }
        if isFileBusy || pending != nil {
            isFlushing = true
            isWriteDue = pending != nil
            return isFileBusy ? effects : effects + startDueWrite()
        }
        return effects + [.finishFlushes(failure?.error)]
    }

    /// The running write succeeded.
    public mutating func writeSucceeded() -> [Effect] {
        guard writing != nil else { return [] }  // impossible: no write was started
        writing = nil
        failure = nil
        return [.publishStatus] + fileBecameFree()
    }

    /// The running write failed; its version stays pending unless a newer one is.
    public mutating func writeFailed(_ error: PersistenceError) -> [Effect] {
        guard let failed = writing else { return [] }  // impossible: no write was started
        writing = nil
        if pending == nil { pending = failed }
        failure = Failure(error: error, attempts: (failure?.attempts ?? 0) + 1)
        guard isFlushing else { return [.publishStatus] }
        // A flush ends with the failure instead of retrying forever; the version stays pending.
        isFlushing = false
        isWriteDue = false
        return [.publishStatus, .finishFlushes(error)]
    }

    /// The periodic check for another process's save is due; skipped while the file is busy.
    public mutating func checkDue() -> [Effect] {
        guard !isFileBusy else { return [] }
        isCheckingFile = true
        return [.checkFile]
    }

    /// The check of the file ended (the saver hands what it found to its owner).
    public mutating func fileChecked() -> [Effect] {
        guard isCheckingFile else { return [] }  // impossible: no check was started
        isCheckingFile = false
        return fileBecameFree()
    }

    // MARK: Decisions

    private mutating func startDueWrite() -> [Effect] {
        isWriteDue = false
        guard let document = pending else { return [] }
        pending = nil
        writing = document
        return [.write(document)]
    }

    /// What follows a write or check: a due write, the timer for a version that came meanwhile,
    /// or the end of a flush.
    private mutating func fileBecameFree() -> [Effect] {
        if pending != nil {
            if isFlushing || isWriteDue { return startDueWrite() }
            if !isTimerRunning {
                isTimerRunning = true
                return [.startTimer]
            }
            return []
        }
        isWriteDue = false
        guard isFlushing else { return [] }
        isFlushing = false
        return [.finishFlushes(nil)]
    }
}
