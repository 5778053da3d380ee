import MVCDocumentStore
import Testing

/// When the saver's state machine looks at the file for another process's save.
@Suite("The saver's look at the file, when the file is busy")
struct SaverLookTimingTests {
    typealias State = SaverState<String>

    private func file(_ document: String) -> DocumentSnapshot<String> {
        DocumentSnapshot(document: document, bytes: Array(document.utf8))
    }

    private func written(_ document: String) -> SaveOutcome<String> {
        SaveOutcome(snapshot: file(document))
    }

    @Test(
        "a check that came due during a write runs once the write ends, whether the file is left idle or waiting for a timer"
    )
    func checkDueDuringWriteRunsAfter() {
        var waiting = State()
        _ = waiting.documentChanged("v1")
        _ = waiting.timerFired(generation: 1)
        #expect(waiting.lookDue() == [])  // the file is busy: the check waits
        _ = waiting.documentChanged("v2")

        #expect(
            waiting.writeSucceeded(written("v1"))
                == [.startTimer(generation: 2), .lookAtFile(against: file("v1"))])
        #expect(waiting.stage == .looking(then: .timer(2)))

        var idle = State()
        _ = idle.documentChanged("v1")
        _ = idle.timerFired(generation: 1)
        _ = idle.lookDue()
        #expect(
            idle.writeSucceeded(written("v1")) == [
                .publishStatus, .lookAtFile(against: file("v1")),
            ])
    }
}
