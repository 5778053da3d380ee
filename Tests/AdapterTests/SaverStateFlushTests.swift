import MVCDocumentStore
import MVCListStore
import Testing

/// The saver's flush: it writes at once, waits for a write or a check under way, and ends.
extension SaverStateTests {
    @Test("a flush cancels the timer and writes at once, then finishes")
    func flushWritesNow() {
        var state = State()
        _ = state.documentChanged("v1")

        #expect(state.flushRequested() == [.cancelTimer, .write("v1", over: .missing)])
        #expect(state.writeSucceeded(written("v1")) == [.publishStatus, .finishFlushes(nil)])
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
        _ = state.timerFired(generation: 1)
        _ = state.documentChanged("v2")

        #expect(state.flushRequested() == [])
        #expect(state.writeSucceeded(written("v1")) == [.write("v2", over: file("v1"))])
        #expect(state.writeSucceeded(written("v2")) == [.publishStatus, .finishFlushes(nil)])
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

    @Test("a flush during a check cancels the timer and writes when the check ends")
    func flushDuringCheck() {
        var state = State()
        _ = state.documentChanged("v1")
        _ = state.lookDue()

        #expect(state.flushRequested() == [.cancelTimer])
        #expect(
            state.lookedAtFile(.unchanged(.missing, reread: false)) == [
                .write("v1", over: .missing)
            ]
        )
    }
}
