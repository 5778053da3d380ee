import AttractionsStorage
import Foundation
import MVCDocumentStore
import MVCListStore
import MVCModel
import MVCObservation
import MVCStore
import TestSupport
import Testing

/// Several processes on one JSON document: this test's store, and others that are real second
/// processes (``OtherStoreProcess``), never a second store in this one.
@MainActor
@Suite("Several processes on one file")
struct SharedFileTests {
    private func open(
        _ folder: TemporaryFolder, watch: Duration? = nil, delay: Duration = .milliseconds(300),
        clock: any Clock<Duration> = ContinuousClock()
    ) async throws -> (store: AttractionStore, saver: CoalescingSaver<[Attraction]>) {
        try await AttractionStore.open(
            at: folder.file("a.json"), delay: delay, clock: clock, watchInterval: watch,
            watching: watch != nil)
    }

    @Test(
        "a store opened through a symbolic link to another folder is told of a save to the target at once"
    )
    func linkedFileWatched() async throws {
        let folder = try TemporaryFolder()
        let elsewhere = try TemporaryFolder()
        let target = elsewhere.file("real.json")
        let link = folder.file("a.json")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let (store, saver) = try await AttractionStore.open(at: link)
        // Notices only: a poll this slow would not come within the test.
        #expect(saver.watchForSaves(fallbackInterval: .seconds(3_600)))
        let other = try await OtherStoreProcess(target, watch: nil)

        _ = try await other.add("Orsay", at: 0)
        try await other.run("flush")
        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        while store.elements.isEmpty && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }

        #expect(store.elements.map(\.name) == ["Orsay"])
        try await other.close()
    }

    @Test("a save never overwrites what another process saved since this one read the file")
    func noLostAddition() async throws {
        let folder = try TemporaryFolder()
        let first = try await open(folder)
        let second = try await OtherStoreProcess(folder.file("a.json"), watch: nil)

        _ = try await second.add("Orsay", at: 0)
        try await second.run("flush")
        try first.store.add(Attraction(name: "Louvre"))
        try await first.saver.flush()

        let onDisk = try #require(try await first.saver.file.load())
        #expect(Set(onDisk.map(\.name)) == ["Louvre", "Orsay"])
        #expect(first.store.elements == onDisk)
        try await second.close()
    }

    @Test("what a merge brings in reaches subscribers as ordinary updates")
    func mergeIsOrdinaryUpdates() async throws {
        let folder = try TemporaryFolder()
        let first = try await open(folder)
        let second = try await OtherStoreProcess(folder.file("a.json"), watch: nil)
        let log = ChangeLog(first.store)

        let orsay = try await second.add("Orsay", at: 0)
        try await second.run("flush")
        try first.store.add(Attraction(name: "Louvre"))
        try await first.saver.flush()

        #expect(log.changes.count == 2)
        #expect(log.changes.contains(.inserted(Attraction(id: orsay, name: "Orsay"), at: 1)))
        try await second.close()
    }

    @Test("a watching store shows another process's save without saving anything itself")
    func watcherTakesInSaves() async throws {
        let folder = try TemporaryFolder()
        let clock = TestClock()
        let watching = try await open(folder, watch: .seconds(1), clock: clock)
        let other = try await OtherStoreProcess(folder.file("a.json"), watch: nil)
        let log = ChangeLog(watching.store)

        _ = try await other.add("Orsay", at: 0)
        try await other.run("flush")
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(999))
        // Still asleep: it has not looked (a look once woken could land at any later moment).
        #expect(clock.sleeperCount == 1, "the watcher woke before its interval")
        #expect(watching.store.elements.isEmpty)

        clock.advance(by: .milliseconds(1))
        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        while watching.store.elements.isEmpty && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }

        #expect(watching.store.elements.map(\.name) == ["Orsay"])
        #expect(log.changes.map(\.element.name) == ["Orsay"])
        #expect(!watching.saver.hasPendingChanges)
        try await other.close()
    }

    @Test("undo of an edit whose attraction another process deleted is refused and dropped")
    func undoAfterMerge() async throws {
        let folder = try TemporaryFolder()
        let first = try await open(folder)
        try first.store.add(Attraction(name: "Louvre"))
        try first.store.add(Attraction(name: "Orsay"))
        try await first.saver.flush()
        let second = try await OtherStoreProcess(folder.file("a.json"), watch: nil)
        try await second.run("delete 1")
        try await second.run("flush")
        try await second.close()
        try first.store.move(from: 0, to: 1)
        try await first.saver.flush()

        #expect(first.store.elements.map(\.name) == ["Louvre"])
        #expect(first.store.undoLabel == "Move “Louvre”")
        #expect(throws: AttractionStoreError.self) { try first.store.undo() }
        #expect(first.store.undoLabel == "Add “Orsay”")
        #expect(throws: AttractionStoreError.changedElsewhere("Add “Orsay”")) {
            try first.store.undo()
        }
        try first.store.undo()
        #expect(first.store.elements.isEmpty)
    }

    @Test("undo of a rename keeps the notes another process wrote meanwhile, and saves them")
    func undoKeepsMergedFields() async throws {
        let folder = try TemporaryFolder()
        let first = try await open(folder)
        let louvre = Attraction(name: "Louvre")
        try first.store.add(louvre)
        try await first.saver.flush()
        let second = try await OtherStoreProcess(folder.file("a.json"), watch: nil)
        try first.store.replace(louvre.id, with: Attraction(id: louvre.id, name: "Le Louvre"))
        try await second.run("notes \(louvre.id) Mona Lisa")
        try await second.run("flush")
        try await second.close()
        try await first.saver.flush()

        try first.store.undo()
        try await first.saver.flush()

        let expected = [Attraction(id: louvre.id, name: "Louvre", notes: "Mona Lisa")]
        #expect(first.store.elements == expected)
        #expect(try await first.saver.file.load() == expected)
    }

    @Test("an editor's save keeps the fields it did not touch as the store holds them now")
    func editorKeepsMergedFields() throws {
        let louvre = Attraction(name: "Louvre")
        let store = AttractionStore([louvre])
        // Another process's notes, merged in while the editor was open on the old value.
        try store.replace(
            louvre.id, with: Attraction(id: louvre.id, name: "Louvre", notes: "Mona Lisa"))

        try store.mergeEdit(of: louvre, result: Attraction(id: louvre.id, name: "Le Louvre"))

        #expect(
            store.elements == [Attraction(id: louvre.id, name: "Le Louvre", notes: "Mona Lisa")])
    }

    @Test(
        "an editor's save of a field changed elsewhere while it was open keeps the other change, and a notice names the field"
    )
    func editorMeetsSameFieldChange() throws {
        let louvre = Attraction(name: "Louvre")
        let store = AttractionStore([louvre])
        // Another process renamed it while the editor was open on the old name.
        try store.replace(louvre.id, with: Attraction(id: louvre.id, name: "Musée du Louvre"))

        try store.mergeEdit(
            of: louvre, result: Attraction(id: louvre.id, name: "Le Louvre", notes: "Art"))

        #expect(
            store.elements == [Attraction(id: louvre.id, name: "Musée du Louvre", notes: "Art")])
        #expect(
            store.notice.value?.message
                == "“Louvre” had its name changed here to “Le Louvre” and in another process to “Musée du Louvre”; the other process's was kept"
        )
    }

    @Test(
        "an editor's save that sets a field to what another change set meanwhile tells nothing, and one whose only change lost records no undo"
    )
    func editorMeetsSameFieldEdges() throws {
        let louvre = Attraction(name: "Louvre")
        let store = AttractionStore([louvre])
        let renamed = Attraction(id: louvre.id, name: "Le Louvre")
        try store.replace(louvre.id, with: renamed)
        let undoBefore = store.undoLabel

        try store.mergeEdit(of: louvre, result: renamed)
        #expect(store.notice.value == nil)
        try store.mergeEdit(of: louvre, result: Attraction(id: louvre.id, name: "Louvre Museum"))

        #expect(store.elements == [renamed])
        #expect(store.notice.value?.sequenceNumber == 1)
        #expect(store.undoLabel == undoBefore)
    }

    @Test("an editor's save that lost two fields to changes made elsewhere names each")
    func editorLosesTwoFields() throws {
        let louvre = Attraction(name: "Louvre", notes: "art")
        let store = AttractionStore([louvre])
        var notices: [String] = []
        let token = store.notice.observe(options: .new) { change in
            if let notice = change.newValue ?? nil { notices.append(notice.message) }
        }
        try store.replace(
            louvre.id, with: Attraction(id: louvre.id, name: "Le Louvre", notes: "Mona Lisa"))

        try store.mergeEdit(
            of: louvre,
            result: Attraction(id: louvre.id, name: "Louvre Museum", notes: "paintings"))

        #expect(notices.count == 2)
        #expect(notices.contains { $0.contains("in another process to “Le Louvre”") })
        #expect(notices.contains { $0.contains("in another process to “Mona Lisa”") })
        withExtendedLifetime(token) {}
    }

    @Test(
        "random edits by three processes, saved in random order, lose no acknowledged edit",
        // One seed at a time: three processes each, looking every millisecond for odd seeds.
        .serialized, arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8, 9, 10])
    func randomizedNoLostEdit(seed: UInt64) async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        var random = SeededGenerator(seed: seed)
        var processes: [OtherStoreProcess] = []
        // Odd seeds save at once and look at the file every millisecond, so writes, checks and
        // merges interleave with the edits; even seeds save only when flushed.
        for _ in 0..<3 {
            processes.append(
                seed % 2 == 1
                    ? try await OtherStoreProcess(url, saveDelay: .zero, watch: .milliseconds(1))
                    : try await OtherStoreProcess(url, saveDelay: .seconds(60), watch: nil))
        }
        // What each process owns and expects: it edits only its own attractions (named by id, so
        // a merge that lands meanwhile cannot redirect an edit), so the expected end state is exact.
        var expected: [[Attraction.ID: String]] = Array(repeating: [:], count: 3)
        var serial = 0

        for _ in 0..<120 {
            let index = Int.random(in: 0..<3, using: &random)
            let process = processes[index]
            let elements = try await process.elements
            let own = elements.filter { expected[index][$0.id] != nil }
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4:
                serial += 1
                let name = "p\(index) #\(serial)"
                let id = try await process.add(
                    name, at: Int.random(in: 0...elements.count, using: &random))
                expected[index][id] = name
            case 4..<6 where !own.isEmpty:
                let target = own[Int.random(in: 0..<own.count, using: &random)]
                serial += 1
                let name = "p\(index) #\(serial) renamed"
                try await process.run("rename \(target.id) \(name)")
                expected[index][target.id] = name
            case 6 where !own.isEmpty:
                let target = own[Int.random(in: 0..<own.count, using: &random)]
                try await process.run("delete \(target.id)")
                expected[index][target.id] = nil
            case 7 where elements.count > 1:
                try await process.run(
                    "move \(Int.random(in: 0..<elements.count, using: &random)) \(Int.random(in: 0..<elements.count, using: &random))"
                )
            default:
                try await process.run("flush")
            }
        }
        for process in processes + processes { try await process.run("flush") }

        let onDisk = try await open(folder).store.elements
        let wanted = expected.reduce(into: [Attraction.ID: String]()) { $0.merge($1) { a, _ in a } }
        #expect(Dictionary(uniqueKeysWithValues: onDisk.map { ($0.id, $0.name) }) == wanted)
        // Each process holds everything of its own; the others' edits reach it with its next save
        // or its watcher (tested above).
        for (index, process) in processes.enumerated() {
            let held = try await process.elements.map(\.id)
            #expect(Set(expected[index].keys).isSubset(of: held))
            try await process.close()
        }
    }
}
