import MVCDocumentStore
import MVCListStore
import Testing

/// The saver's decisions, transition by transition: no tasks, no files, no clock.
@Suite("The saver's state machine")
struct SaverStateTests {
    typealias State = SaverState<String>
    let failure = PersistenceError.unwritable(path: "/a.json", reason: "disk full")

    /// The file as a write of `document` leaves it.
    func file(_ document: String) -> DocumentSnapshot<String> {
        DocumentSnapshot(document: document, bytes: Array(document.utf8))
    }

    func written(_ document: String) -> SaveOutcome<String> {
        SaveOutcome(snapshot: file(document))
    }

    @Test("the first change starts the timer; more changes only replace the pending version")
    func burstStartsOneTimer() {
        var state = State()

        #expect(state.documentChanged("v1") == [.publishStatus, .startTimer(generation: 1)])
        #expect(state.documentChanged("v2") == [])
        #expect(state.documentChanged("v3") == [])
        #expect(state.pending == "v3")
        #expect(state.stage == .waiting(timer: 1))
        #expect(state.status == .pending)
    }

    @Test("the timer writes the newest version over the base; success moves the base")
    func timerWritesNewest() {
        var state = State(base: file("v0"))
        _ = state.documentChanged("v1")
        _ = state.documentChanged("v2")

        #expect(state.timerFired(generation: 1) == [.write("v2", over: file("v0"))])
        #expect(state.writing == "v2")
        #expect(state.writeSucceeded(written("v2")) == [.publishStatus])
        #expect(state.status == .saved)
        #expect(state.base == file("v2"))
        #expect(state.stage == .idle)
    }

    @Test("a timer that fires after it was cancelled or replaced changes nothing")
    func staleTimerIgnored() {
        var state = State()
        _ = state.documentChanged("v1")
        _ = state.flushRequested()  // cancels timer 1, whose sleep may already have ended
        _ = state.writeSucceeded(written("v1"))
        _ = state.documentChanged("v2")  // timer 2
        let before = state

        #expect(state.timerFired(generation: 1) == [])
        #expect(state == before)
        #expect(state.timerFired(generation: 2) == [.write("v2", over: file("v1"))])
    }

    @Test("a change during a write waits for it, then starts a new timer")
    func changeDuringWriteWaits() {
        var state = State()
        _ = state.documentChanged("v1")
        _ = state.timerFired(generation: 1)

        #expect(state.documentChanged("v2") == [])
        #expect(state.writeSucceeded(written("v1")) == [.startTimer(generation: 2)])
        #expect(state.timerFired(generation: 2) == [.write("v2", over: file("v1"))])
    }

    @Test("a failed write keeps its version and the base, and a second failure is a new status")
    func repeatedFailureIsNews() {
        var state = State(base: file("v0"))
        _ = state.documentChanged("v1")
        _ = state.timerFired(generation: 1)

        #expect(state.writeFailed(failure) == [.publishStatus])
        #expect(state.status == .failed(failure, attempts: 1))
        #expect(state.pending == "v1")
        #expect(state.base == file("v0"))
        #expect(state.documentChanged("v2") == [.startTimer(generation: 2)])
        _ = state.timerFired(generation: 2)
        #expect(state.writeFailed(failure) == [.publishStatus])

        #expect(state.status == .failed(failure, attempts: 2))
        #expect(state.pending == "v2")
        _ = state.documentChanged("v3")
        _ = state.timerFired(generation: 3)
        #expect(state.writeSucceeded(written("v3")) == [.publishStatus])
        #expect(state.status == .saved)
    }

    @Test("a failed write does not replace a newer version that came during it")
    func failureKeepsNewerVersion() {
        var state = State()
        _ = state.documentChanged("v1")
        _ = state.timerFired(generation: 1)
        _ = state.documentChanged("v2")

        _ = state.writeFailed(failure)

        #expect(state.pending == "v2")
    }

    @Test("a write that reached the file but was not confirmed on disk is written, and says so")
    func unconfirmedWrite() {
        var state = State()
        _ = state.documentChanged("v1")
        _ = state.timerFired(generation: 1)

        let outcome = SaveOutcome(snapshot: file("v1"), durability: .unconfirmed("I/O error"))
        #expect(state.writeSucceeded(outcome) == [.publishStatus])
        #expect(state.status == .unconfirmed("I/O error"))
        #expect(state.pending == nil)
        #expect(state.base == file("v1"))

        _ = state.documentChanged("v2")
        _ = state.timerFired(generation: 2)
        _ = state.writeSucceeded(written("v2"))
        #expect(state.status == .saved)
    }

    @Test("a merged write has the owner take the file in before anything else is written")
    func mergedWriteReconcilesFirst() {
        var state = State(base: file("v0"))
        _ = state.documentChanged("ours")
        _ = state.timerFired(generation: 1)
        _ = state.documentChanged("ours+1")  // made during the write

        let outcome = SaveOutcome(
            snapshot: file("merged"), merged: MergeResult(document: "merged", notices: ["n"]))
        #expect(
            state.writeSucceeded(outcome) == [
                .reconcile(base: "ours", file: "merged", notices: ["n"])
            ])
        #expect(state.stage == .reconciling(file: "merged", then: .nothing))
        #expect(state.base == file("merged"))
        // The owner's answer replaces the pending version made without the file's changes.
        #expect(state.reconciled("merged+1") == [.startTimer(generation: 2)])
        #expect(state.pending == "merged+1")
        #expect(state.timerFired(generation: 2) == [.write("merged+1", over: file("merged"))])
    }

    @Test("a reconcile whose answer is the file's version leaves nothing to write")
    func reconcileWithNothingOfOurs() {
        var state = State(base: file("v0"))
        _ = state.lookDue()

        #expect(
            state.lookedAtFile(.changed(file("theirs")))
                == [.reconcile(base: "v0", file: "theirs", notices: [])])
        #expect(state.reconciled("theirs") == [])
        #expect(state.stage == .idle)
        #expect(state.status == .saved)
    }

    /// The file as a save named `saves[0]` left it, having come after the rest of `saves`.
    func file(_ document: String, saves: [String]) -> DocumentSnapshot<String> {
        DocumentSnapshot(
            document: document, bytes: Array(document.utf8), history: SaveHistory(saves))
    }

    @Test(
        "a check that finds an older copy takes it in against itself, so nothing it lacks is deleted, and says so"
    )
    func olderCopyChecked() {
        var state = State(base: file("v3", saves: ["c", "b", "a"]))
        _ = state.lookDue()

        #expect(
            state.lookedAtFile(.changed(file("v1", saves: ["a"])))
                == [.reconcile(base: "v1", file: "v1", notices: [SaverNotice.older])])
        #expect(state.base.history == SaveHistory(["a"]))
        #expect(Set(state.base.lineage.saves) == ["a", "b", "c"], "what it came after is kept")
        #expect(state.reconciled("v3") == [.publishStatus, .startTimer(generation: 1)])
        #expect(state.pending == "v3")
    }

    @Test("a second older copy, put back before the first was replaced, is older too")
    func twoOlderCopies() {
        var state = State(base: file("v3", saves: ["c", "b", "a"]))
        _ = state.lookDue()
        _ = state.lookedAtFile(.changed(file("v1", saves: ["a"])))
        _ = state.reconciled("v3")
        _ = state.lookDue()

        #expect(
            state.lookedAtFile(.changed(file("v2", saves: ["b", "a"])))
                == [.reconcile(base: "v2", file: "v2", notices: [SaverNotice.older])])
    }

    @Test(
        "a check that finds a version that did not come from this one takes it in with no base, and says so"
    )
    func unrelatedChecked() {
        for saves in [["x"], ["x", "a"], []] {
            var state = State(base: file("mine", saves: ["b", "a"]))
            _ = state.lookDue()
            #expect(
                state.lookedAtFile(.changed(file("theirs", saves: saves)))
                    == [.reconcile(base: nil, file: "theirs", notices: [SaverNotice.unrelated])],
                "\(saves)")
        }
    }

    @Test(
        "a check that finds a later save, the same one edited by hand, or a file from before save ids, merges as usual"
    )
    func laterChecked() {
        for (base, theirs) in [
            (["b", "a"], ["c", "b", "a"]), (["b", "a"], ["b", "a"]), ([], ["c"]),
        ] {
            var state = State(base: file("v2", saves: base))
            _ = state.lookDue()
            #expect(
                state.lookedAtFile(.changed(file("v3", saves: theirs)))
                    == [.reconcile(base: "v2", file: "v3", notices: [])], "\(base) \(theirs)")
        }
    }

    @Test(
        "a deleted file keeps its document and saves: a later file made again merges against it, a copy put back is older"
    )
    func deletedKeepsSaves() {
        var state = State(base: file("v2", saves: ["b", "a"]))
        _ = state.lookDue()
        _ = state.lookedAtFile(.deleted)
        #expect(state.base.lineage(of: SaveHistory(["a"])) == .older)

        _ = state.lookDue()
        #expect(
            state.lookedAtFile(.changed(file("v3", saves: ["c", "b", "a"])))
                == [.reconcile(base: "v2", file: "v3", notices: [])])
    }

    @Test("a check that finds the file touched but unchanged takes its new identity as the base")
    func touchedFileMovesBase() {
        var state = State(base: file("v0"))
        _ = state.lookDue()
        let touched = DocumentSnapshot(document: "v0", bytes: Array("v0".utf8))

        #expect(state.lookedAtFile(.unchanged(touched, reread: true)) == [])
        #expect(state.base == touched)
        #expect(state.stage == .idle)
    }

    @Test("a deleted file is told, becomes the base, and the next change writes the list again")
    func deletedFile() {
        var state = State(base: file("v0"))
        _ = state.lookDue()

        #expect(state.lookedAtFile(.deleted) == [.notify(SaverNotice.deleted)])
        let gone = DocumentSnapshot(document: "v0", bytes: nil)
        #expect(state.base == gone, "no file, and the document it held as the merge base")
        #expect(state.pending == nil)
        _ = state.documentChanged("v1")
        #expect(state.timerFired(generation: 1) == [.write("v1", over: gone)])
    }

    @Test("a write that found the file deleted and wrote it again says so")
    func recreatedFile() {
        var state = State(base: file("v0"))
        _ = state.documentChanged("v1")
        _ = state.timerFired(generation: 1)

        let outcome = SaveOutcome(snapshot: file("v1"), recreatedDeletedFile: true)
        #expect(state.writeSucceeded(outcome) == [.publishStatus, .notify(SaverNotice.recreated)])
    }

    @Test("a check waits while a write runs, and a timer that fires during a check writes after it")
    func checksAndWritesTakeTurns() {
        var state = State()
        _ = state.documentChanged("v1")
        #expect(state.lookDue() == [.lookAtFile(against: .missing)])
        #expect(state.lookDue() == [])

        #expect(state.timerFired(generation: 1) == [])
        #expect(state.stage == .looking(then: .write))
        #expect(
            state.lookedAtFile(.unchanged(.missing, reread: false)) == [
                .write("v1", over: .missing)
            ]
        )
        #expect(state.lookDue() == [])
    }

    @Test("a check that comes due during a write runs once the write has ended")
    func checkDuringWriteRunsAfter() {
        var state = State()
        _ = state.documentChanged("v1")
        _ = state.flushRequested()
        #expect(state.lookDue() == [])

        let effects = state.writeSucceeded(written("v1"))
        #expect(effects.contains(.lookAtFile(against: state.base)), "\(effects)")
    }

    @Test("a check that fails lets the running timer go on, and tells why once")
    func failedCheck() {
        var state = State()
        _ = state.documentChanged("v1")
        _ = state.lookDue()

        #expect(state.lookFailed("garbage") == [.notify(SaverNotice.unreadable("garbage"))])
        #expect(state.stage == .waiting(timer: 1))
        _ = state.lookDue()
        #expect(state.lookFailed("garbage") == [])
    }

    @Test(
        "a check that fails with nothing pending makes the version open here pending, so the next save meets the problem"
    )
    func failedCheckWithNothingPending() {
        var state = State(base: DocumentSnapshot(document: "v1", bytes: Array("v1".utf8)))
        _ = state.lookDue()

        #expect(
            state.lookFailed("garbage") == [
                .publishStatus, .notify(SaverNotice.unreadable("garbage")),
                .startTimer(generation: 1),
            ])
        #expect(state.pending == "v1")
    }

    @Test("a change during a check waits for it, then starts the timer")
    func changeDuringCheck() {
        var state = State()
        _ = state.lookDue()

        #expect(state.documentChanged("v1") == [.publishStatus])
        #expect(
            state.lookedAtFile(.unchanged(.missing, reread: false)) == [.startTimer(generation: 1)])
    }

    @Test("events that do not fit the stage change nothing")
    func impossibleEvents() {
        var state = State()
        let before = state

        #expect(state.timerFired(generation: 1) == [])
        #expect(state.writeSucceeded(written("v1")) == [])
        #expect(state.writeFailed(failure) == [])
        #expect(state.lookedAtFile(.deleted) == [])
        #expect(state.lookFailed("garbage") == [])
        #expect(state.reconciled("v1") == [])
        #expect(state == before)
    }
}
