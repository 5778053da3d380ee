/// What a database persistence's one worker knows and decides, as a value (SQLite's and
/// PostgreSQL's ask the same one).
///
/// The edits queued and how many are written, the looks asked for, what to tell and when, and
/// closing. Pure, as the JSON saver's `SaverState` is: each event is a method named for what
/// happened, ``next()`` says what to do now, and the persistence does it (the I/O) and
/// reports how it went.
package struct WorkerState<Write> {
    /// Open, then closing (writing what is queued, no more looks), then closed (deaf).
    package enum Stage: Sendable { case open, closing, closed }
    /// What the worker does now.
    package enum Step {
        /// Write the first queued edit.
        case write(Write)
        /// Look for other processes' commits.
        case look
        /// Nothing: the worker ends until there is work.
        case rest
    }

    package private(set) var stage = Stage.open
    package private(set) var pending: [Write] = []
    /// How many edits were queued, and how many of them are written: a flush waits for the count
    /// it was called at, however many edits or other programs' commits come after.
    package private(set) var queued = 0
    package private(set) var written = 0
    /// Failed writes in a row, and the last one's reason.
    package private(set) var failures = 0
    package private(set) var lastError: PersistenceError?
    /// Whether looks are made (from opening until closing), and whether one is due.
    package private(set) var isWatching = false
    package private(set) var wantsLook = false
    /// What writes told of a row the store does not have as written: told once the look that
    /// brings the row has applied it, so the update does not take the notice off a screen.
    package private(set) var heldNotices: [String] = []
    /// What looks told last, so that each problem and skipped row is told once.
    private var lookProblem: String?
    private var skippedRows: Set<String> = []
    /// Set once closing begins: how long it waits for other programs' locks.
    package private(set) var closingPatience: Duration?
    /// Why closing could not write everything; it also ends the worker.
    package private(set) var closingFailure: PersistenceError?
    package private(set) var isClosedForGood = false
    /// Edits made once closing had begun: not written, and said.
    package private(set) var notTaken = 0

    package init() {}

    // MARK: Events

    /// Looks are made from now on, until closing.
    package mutating func startedWatching() { isWatching = true }

    /// An edit was made: queued, unless closing has begun (edits cannot hold closing open);
    /// whether it was taken.
    package mutating func edited(_ write: Write) -> Bool {
        guard stage == .open, closingPatience == nil else {
            notTaken += 1
            return false
        }
        pending.append(write)
        queued += 1
        return true
    }

    /// A look was asked for; whether one will be made.
    package mutating func lookAsked() -> Bool {
        guard stage == .open, isWatching else { return false }
        wantsLook = true
        return true
    }

    /// What to do now, most urgent first: write what is queued, then look.
    package mutating func next() -> Step {
        guard closingFailure == nil else { return .rest }
        if stage != .closed, let first = pending.first { return .write(first) }
        if wantsLook, stage == .open, isWatching {
            wantsLook = false
            return .look
        }
        return .rest
    }

    /// The first queued edit was written; what to tell of the other programs' edits it met now
    /// (`nil`: nothing, or held until the look that brings a row not as this process has it).
    package mutating func wrote(notices: [String], differs: Bool) -> String? {
        pending.removeFirst()
        written += 1
        failures = 0
        if pending.isEmpty { lastError = nil }
        if differs { wantsLook = true }
        guard !notices.isEmpty else { return nil }
        // One notice: several posted in one turn would be seen as the last alone.
        let notice = notices.joined(separator: "; ")
        if differs {
            heldNotices.append(notice)
            return nil
        }
        return notice
    }

    /// The first queued edit could not be written; it stays queued.
    package mutating func writeFailed(_ error: PersistenceError) {
        failures += 1
        lastError = error
    }

    /// A write begun once closing waited out locks failed: closing gives up, saying `failure`.
    package mutating func closingGaveUp(_ failure: PersistenceError) {
        closingFailure = failure
    }

    /// A look read other processes' commits, or failed; whether the store may take them in now:
    /// not while edits of this process wait to be written (then it looks again after them).
    package mutating func lookRead() -> Bool {
        guard pending.isEmpty else {
            wantsLook = true
            return false
        }
        return true
    }

    /// A look found what it could not apply one row at a time: it looks again.
    package mutating func lookAgain() { wantsLook = true }

    /// A look failed with `problem`; whether to tell it (each problem is told once in a row).
    package mutating func lookFailed(_ problem: String) -> Bool {
        defer { lookProblem = problem }
        return problem != lookProblem
    }

    /// A look succeeded: a later failure is told again.
    package mutating func lookSucceeded() { lookProblem = nil }

    /// The rows a look skipped; those not told at the last look.
    package mutating func skipped(_ problems: [String]) -> [String] {
        defer { skippedRows = Set(problems) }
        return problems.filter { !skippedRows.contains($0) }
    }

    /// The held notices, to tell now that the rows they are about are in the store.
    package mutating func takeHeldNotices() -> [String] {
        defer { heldNotices.removeAll() }
        return heldNotices
    }

    /// Closing began, waiting up to `patience` for other programs' locks: no more edits or looks.
    package mutating func closingBegan(patience: Duration) {
        closingPatience = patience
        isWatching = false
    }

    /// The worker is idle while closing: it writes what is queued, then ends.
    package mutating func closingWrites() { stage = .closing }

    /// The worker ended for good; the database is closed next.
    package mutating func closed() { stage = .closed }

    /// The database is closed.
    package mutating func closedForGood() { isClosedForGood = true }

    // MARK: Questions

    /// Where a flush stands.
    package enum FlushStanding {
        case waiting
        case done
        case failed(PersistenceError)
    }

    /// How a flush called when `target` edits were queued stands, once the worker took a turn:
    /// done once they are written (or closing ended), failed while the last write failed.
    package func flush(target: Int) -> FlushStanding {
        if isClosedForGood || written >= target { return .done }
        if failures > 0, let lastError { return .failed(lastError) }
        return .waiting
    }
}
