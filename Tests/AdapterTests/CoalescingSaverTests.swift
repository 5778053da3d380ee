import AttractionsStorage
import Foundation
import MVCDocumentStore
import MVCListStore
import MVCModel
import MVCObservation
import MVCStore
import TestSupport
import Testing

@MainActor
@Suite("Coalesced saving")
struct CoalescingSaverTests {
    @Test("a burst of a thousand edits is written once, when the timer fires")
    func burstIsOneWrite() async throws {
        let folder = try TemporaryFolder()
        let clock = TestClock()
        let (store, saver) = try await AttractionStore.open(
            at: folder.file("a.json"), clock: clock)

        for index in 1...1_000 { try store.add(Attraction(name: "attraction \(index)")) }
        await clock.waitForSleepers(1)
        #expect(saver.writeCount == 0)
        clock.advance()
        try await saver.flush()

        #expect(saver.writeCount == 1)
        #expect(try await saver.file.load() == store.elements)
    }

    @Test(
        "the write waits the whole delay on the saver's clock, and a later edit does not restart it"
    )
    func writeWaitsForTheDelay() async throws {
        let folder = try TemporaryFolder()
        let clock = TestClock()
        let (store, saver) = try await AttractionStore.open(
            at: folder.file("a.json"), delay: .milliseconds(300), clock: clock)

        try store.add(Attraction(name: "Louvre"))
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(299))
        for _ in 0..<100 { await Task.yield() }
        try store.add(Attraction(name: "Orsay"))
        #expect(saver.writeCount == 0)
        #expect(clock.sleeperCount == 1, "a second edit started a second timer")

        clock.advance(by: .milliseconds(1))
        while saver.writeCount == 0 { await Task.yield() }
        try await saver.flush()
        #expect(saver.writeCount == 1)
        #expect(try await saver.file.load()?.map(\.name) == ["Louvre", "Orsay"])
    }

    @Test("flush writes what is pending at once, without waiting for the timer")
    func flushWritesNow() async throws {
        let folder = try TemporaryFolder()
        let clock = TestClock()
        let (store, saver) = try await AttractionStore.open(
            at: folder.file("a.json"), clock: clock)
        try store.add(Attraction(name: "Louvre"))

        try await saver.flush()

        #expect(saver.writeCount == 1)
        #expect(!saver.hasPendingChanges)
        #expect(try await saver.file.load()?.map(\.name) == ["Louvre"])
    }

    @Test("flush with nothing pending writes nothing")
    func flushWithNothingPending() async throws {
        let folder = try TemporaryFolder()
        let (_, saver) = try await AttractionStore.open(at: folder.file("a.json"))

        try await saver.flush()

        #expect(saver.writeCount == 0)
        #expect(try folder.contents().isEmpty)
    }

    @Test("edits after a write start a new timer and a second write")
    func secondBurst() async throws {
        let folder = try TemporaryFolder()
        let clock = TestClock()
        let (store, saver) = try await AttractionStore.open(
            at: folder.file("a.json"), clock: clock)
        try store.add(Attraction(name: "Louvre"))
        await clock.waitForSleepers(1)
        clock.advance()
        try await saver.flush()

        try store.add(Attraction(name: "Orsay"))
        await clock.waitForSleepers(1)
        clock.advance()
        try await saver.flush()

        #expect(saver.writeCount == 2)
        #expect(try await saver.file.load()?.map(\.name) == ["Louvre", "Orsay"])
    }

    @Test("a failed write is published, keeps its version pending, and a later flush can succeed")
    func failedWriteIsRetried() async throws {
        let folder = try TemporaryFolder()
        let blocker = folder.file("blocker")
        try Data("in the way".utf8).write(to: blocker)
        let (store, saver) = try await AttractionStore.open(at: blocker.appending(path: "a.json"))
        try store.add(Attraction(name: "Louvre"))

        await #expect(throws: PersistenceError.self) { try await saver.flush() }
        guard case .failed(_, attempts: 1) = saver.status.value else {
            Issue.record("the failure is not published: \(saver.status.value)")
            return
        }
        #expect(saver.hasPendingChanges)

        try FileManager.default.removeItem(at: blocker)
        try await saver.flush()

        #expect(saver.status.value == .saved)
        #expect(try await saver.file.load()?.map(\.name) == ["Louvre"])
    }

    @Test("opening a store on a file that cannot be loaded throws, and writes nothing")
    func openFailureWritesNothing() async throws {
        let folder = try TemporaryFolder()
        let corrupt = Data("{ not json".utf8)
        try corrupt.write(to: folder.file("a.json"))

        await #expect(throws: PersistenceError.self) {
            try await AttractionStore.open(at: folder.file("a.json"))
        }

        #expect(try contents(of: folder.file("a.json")) == corrupt)
        #expect(try folder.contents() == ["a.json"])
    }
}

@Suite("Undo history")
struct UndoHistoryTests {
    @Test("undo and redo move entries between the stacks, newest first")
    func stacks() {
        var history = UndoHistory<Int>()
        history.record(1, label: "one")
        history.record(2, label: "two")

        #expect(history.takeUndo()?.edit == 2)
        #expect(history.undoLabel == "one")
        #expect(history.redoLabel == "two")
        #expect(history.takeRedo()?.edit == 2)
        #expect(history.takeRedo() == nil)
    }

    @Test("recording an edit clears what could be redone")
    func recordClearsRedo() {
        var history = UndoHistory<Int>()
        history.record(1, label: "one")
        _ = history.takeUndo()

        history.record(3, label: "three")

        #expect(history.redoLabel == nil)
        #expect(history.undoLabel == "three")
    }
}
