import MVCPersistence
import Testing

/// The saver's decisions, transition by transition: no tasks, no files, no clock.
@Suite("The saver's state machine")
struct SaverStateTests {
    typealias State = SaverState<String>
    private let failure = PersistenceError.unwritable(path: "/a.json", reason: "disk full")

    @Test("the first change starts the timer; more changes only replace the pending version")
    func burstStartsOneTimer() {
        var state = State()

        #expect(state.documentChanged("v1") == [.publishStatus, .startTimer])
        #expect(state.documentChanged("v2") == [])
        #expect(state.documentChanged("v3") == [])
        #expect(state.pending == "v3")
        #expect(state.status == .pending)
    }

    @Test("the timer writes the newest version; success publishes the saved status")
    func timerWritesNewest() {
        var state = State()
        _ = state.documentChanged("v1")
        _ = state.documentChanged("v2")

        #expect(state.timerFired() == [.write("v2")])
        #expect(state.writing == "v2")
        #expect(state.writeSucceeded() == [.publishStatus])
        #expect(state.status == .saved)
    }

    @Test("a change during a write waits for it, then starts the timer")
    func changeDuringWriteWaits() {
        var state = State()
        _ = state.documentChanged("v1")
        _ = state.timerFired()

        #expect(state.documentChanged("v2") == [])
        #expect(state.writeSucceeded() == [.publishStatus, .startTimer])
        #expect(state.timerFired() == [.write("v2")])
    }

    @Test("a failed write keeps its version, and a second failure is a new status")
    func repeatedFailureIsNews() {
        var state = State()
        _ = state.documentChanged("v1")
        _ = state.timerFired()

        #expect(state.writeFailed(failure) == [.publishStatus])
        #expect(state.status == .failed(failure, attempts: 1))
        #expect(state.pending == "v1")
        #expect(state.documentChanged("v2") == [.startTimer])
        _ = state.timerFired()
        #expect(state.writeFailed(failure) == [.publishStatus])

        #expect(state.status == .failed(failure, attempts: 2))
        #expect(state.pending == "v2")
        _ = state.documentChanged("v3")
        _ = state.timerFired()
        #expect(state.writeSucceeded() == [.publishStatus])
        #expect(state.status == .saved)
    }

    @Test("a failed write does not replace a newer version that came during it")
    func failureKeepsNewerVersion() {
        var state = State()
        _ = state.documentChanged("v1")
        _ = state.timerFired()
        _ = state.documentChanged("v2")

        _ = state.writeFailed(failure)

        #expect(state.pending == "v2")
    }

    @Test("a flush cancels the timer and writes at once, then finishes")
    func flushWritesNow() {
        var state = State()
        _ = state.documentChanged("v1")

        #expect(state.flushRequested() == [.cancelTimer, .write("v1")])
        #expect(state.writeSucceeded() == [.publishStatus, .finishFlushes(nil)])
        #expect(!state.isFlushing)
    }

    @Test("a flush with nothing pending finishes at once, with the last failure if there was one")
    func flushWithNothingPending() {
        var state = State()

        #expect(state.flushRequested() == [.finishFlushes(nil)])
    }

    @Test("a flush during a write waits for it, then writes what came meanwhile")
    func flushDuringWrite() {
        var state = State()
        _ = state.documentChanged("v1")
        _ = state.timerFired()
        _ = state.documentChanged("v2")

        #expect(state.flushRequested() == [])
        #expect(state.writeSucceeded() == [.publishStatus, .write("v2")])
        #expect(state.writeSucceeded() == [.publishStatus, .finishFlushes(nil)])
    }

    @Test("a flush whose write fails ends with the failure instead of retrying forever")
    func flushEndsOnFailure() {
        var state = State()
        _ = state.documentChanged("v1")
        _ = state.flushRequested()

        #expect(state.writeFailed(failure) == [.publishStatus, .finishFlushes(failure)])
        #expect(state.pending == "v1")
        #expect(!state.isFlushing)
    }

    @Test("a check of the file waits while a write runs, and a write due during a check follows it")
    func checksAndWritesTakeTurns() {
        var state = State()
        _ = state.documentChanged("v1")
        #expect(state.checkDue() == [.checkFile])
        #expect(state.checkDue() == [])

        #expect(state.timerFired() == [])
        #expect(state.isWriteDue)
        #expect(state.fileChecked() == [.write("v1")])
        #expect(state.checkDue() == [])
    }

    @Test("a change during a check waits for it, then starts the timer")
    func changeDuringCheck() {
        var state = State()
        _ = state.checkDue()

        #expect(state.documentChanged("v1") == [.publishStatus])
        #expect(state.fileChecked() == [.startTimer])
    }

    @Test("events that cannot happen in a state change nothing")
    func impossibleEvents() {
        var state = State()
        let before = state

        #expect(state.timerFired() == [])
        #expect(state.writeSucceeded() == [])
        #expect(state.writeFailed(failure) == [])
        #expect(state.fileChecked() == [])
        #expect(state == before)
    }
}
