import MVCListStore
import Testing

/// The SQLite worker's decisions, as a value: each event named for what happened, no I/O.
@Suite("The SQLite worker's pure core")
struct WorkerStateTests {
    private let failure = PersistenceError.unwritable(path: "/a.sqlite", reason: "disk full")

    private func step(_ state: inout WorkerState<String>) -> String {
        switch state.next() {
        case .write(let write): "write \(write)"
        case .look: "look"
        case .rest: "rest"
        }
    }

    @Test("edits are written in order before any look, and a look is made only when asked")
    func writesBeforeLooks() {
        var state = WorkerState<String>()
        state.startedWatching()
        let taken = [state.edited("a"), state.edited("b"), state.lookAsked()]
        #expect(taken == [true, true, true])
        #expect(step(&state) == "write a")
        _ = state.wrote(notices: [], differs: false)
        #expect(step(&state) == "write b")
        _ = state.wrote(notices: [], differs: false)
        #expect(step(&state) == "look")
        #expect(step(&state) == "rest")
    }

    @Test("a flush waits for the edits made before it, not for those made after")
    func flushTarget() {
        var state = WorkerState<String>()
        _ = state.edited("a")
        let target = state.queued
        _ = state.edited("b")
        _ = state.next()
        _ = state.wrote(notices: [], differs: false)
        guard case .done = state.flush(target: target) else {
            Issue.record("a flush for the first edit still waits")
            return
        }
        guard case .waiting = state.flush(target: state.queued) else {
            Issue.record("a flush for both is done with one written")
            return
        }
    }

    @Test("a failed write stays queued and fails a flush; a retry that succeeds clears it")
    func failureThenRetry() {
        var state = WorkerState<String>()
        _ = state.edited("a")
        state.writeFailed(failure)
        guard case .failed(let error) = state.flush(target: 1) else {
            Issue.record("a flush does not fail while its edit is in no file")
            return
        }
        #expect(error == failure)
        #expect(step(&state) == "write a")
        _ = state.wrote(notices: [], differs: false)
        #expect(state.failures == 0 && state.lastError == nil)
    }

    @Test("a write whose row is not as written here holds its notice for the look that brings it")
    func heldNotice() {
        var state = WorkerState<String>()
        state.startedWatching()
        _ = state.edited("a")
        _ = state.next()
        let toldNow = state.wrote(notices: ["kept theirs", "and this"], differs: true)
        #expect(toldNow == nil)
        #expect(step(&state) == "look")
        let held = [state.takeHeldNotices(), state.takeHeldNotices()]
        #expect(held == [["kept theirs; and this"], []])
        _ = state.edited("b")
        _ = state.next()
        let toldAtOnce = state.wrote(notices: ["told now"], differs: false)
        #expect(toldAtOnce == "told now")
    }

    @Test("a look read while an edit waits is not taken in, and is made again after the write")
    func lookDeferred() {
        var state = WorkerState<String>()
        state.startedWatching()
        _ = state.lookAsked()
        #expect(step(&state) == "look")
        _ = state.edited("a")
        let takenWhileWaiting = state.lookRead()
        #expect(!takenWhileWaiting)
        #expect(step(&state) == "write a")
        _ = state.wrote(notices: [], differs: false)
        #expect(step(&state) == "look")
        let takenAfter = state.lookRead()
        #expect(takenAfter)
    }

    @Test("once closing begins, edits are refused and counted, looks stop, and giving up ends it")
    func closing() {
        var state = WorkerState<String>()
        state.startedWatching()
        _ = state.edited("a")
        state.closingBegan(patience: .seconds(1))
        let refused = [state.edited("b"), state.lookAsked()]
        #expect(refused == [false, false])
        #expect(state.notTaken == 1)
        state.closingWrites()
        #expect(step(&state) == "write a")
        state.closingGaveUp(failure)
        #expect(step(&state) == "rest")
    }

    @Test("a look's problem and each row it skipped are told once, until they change")
    func toldOnce() {
        var state = WorkerState<String>()
        var told = [state.lookFailed("locked"), state.lookFailed("locked")]
        state.lookSucceeded()
        told.append(state.lookFailed("locked"))
        #expect(told == [true, false, true])
        let skipped = [
            state.skipped(["row 2"]), state.skipped(["row 2", "row 5"]), state.skipped([]),
            state.skipped(["row 2"]),
        ]
        #expect(skipped == [["row 2"], ["row 5"], [], ["row 2"]])
    }
}
