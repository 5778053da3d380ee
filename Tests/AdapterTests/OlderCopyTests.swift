import Foundation
import MVCDocumentStore
import MVCListStore
import MVCModel
import MVCObservation
import MVCStore
import Testing

/// What another program's file means for the list open here: an older copy put back, a copy
/// edited elsewhere, another list, a file deleted and made again, a row deleted.
///
/// The other program is a real one: copies made by this test, as `cp` makes them, or
/// ``OtherStoreProcess``.
@MainActor
@Suite("Older copies, other lists and deletions in a shared document")
struct OlderCopyTests {
    /// Every notice the store posts from now on.
    private func notices(of store: AttractionStore) -> (ObservationToken, () -> [String]) {
        var messages: [String] = []
        let token = store.notice.observe(options: .new) { change in
            if let notice = change.newValue ?? nil { messages.append(notice.message) }
        }
        return (token, { messages })
    }

    /// Adds "One" and saves it, then "Two" and saves it; the file as it was after "One".
    private func saveOneThenTwo(
        _ opened: (store: AttractionStore, saver: CoalescingSaver<[Attraction]>), at url: URL
    ) async throws -> Data {
        try opened.store.add(Attraction(name: "One"))
        try await opened.saver.flush()
        let copy = try Data(contentsOf: url)
        try opened.store.add(Attraction(name: "Two"))
        try await opened.saver.flush()
        return copy
    }

    private func eventually(_ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        while !condition() && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition()
    }

    @Test(
        "an older copy put back under a saving store loses nothing saved since, and the store says so"
    )
    func olderCopyMetBySave() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        let opened = try await openDocument(url)
        let (token, told) = notices(of: opened.store)
        defer { token.cancel() }

        let copy = try await saveOneThenTwo(opened, at: url)
        try copy.write(to: url, options: .atomic)
        try opened.store.add(Attraction(name: "Three"))
        try await opened.saver.flush()

        #expect(try await attractionNames(in: url) == ["One", "Two", "Three"])
        #expect(opened.store.elements.map(\.name) == ["One", "Two", "Three"])
        #expect(told().contains(SaverNotice.older), "\(told())")
        #expect(!told().contains { $0.contains("deleted in another process") }, "\(told())")
    }

    @Test("an older copy put back under a watching store is told at once, and replaced by the list")
    func olderCopyMetByWatch() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        let opened = try await openDocument(url, watch: .milliseconds(10))
        let (token, told) = notices(of: opened.store)
        defer { token.cancel() }

        let copy = try await saveOneThenTwo(opened, at: url)
        try copy.write(to: url, options: .atomic)

        #expect(await eventually { told().contains { $0.contains("went back to an older copy") } })
        try await opened.saver.flush()
        #expect(try await attractionNames(in: url) == ["One", "Two"])
        #expect(opened.store.elements.map(\.name) == ["One", "Two"])
        #expect(told() == [SaverNotice.older], "told once")
    }

    @Test(
        "a list another process saves over a copy put back is taken in as a later version, with its deletions"
    )
    func laterThanTheCopy() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        let opened = try await openDocument(url, watch: .milliseconds(10))
        let (token, told) = notices(of: opened.store)
        defer { token.cancel() }
        let copy = try await saveOneThenTwo(opened, at: url)
        try copy.write(to: url, options: .atomic)
        #expect(await eventually { told().contains { $0.contains("went back") } })
        try await opened.saver.flush()

        let other = try await OtherStoreProcess(url, watch: nil)
        try await other.run("delete 0")
        try await other.run("flush")

        #expect(await eventually { opened.store.elements.map(\.name) == ["Two"] })
        #expect(told().last == "“One” was deleted in another process")
        try await other.close()
    }

    @Test(
        "another list moved over the open file is merged with it, neither read as deleting the other"
    )
    func otherListMovedOver() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        let opened = try await openDocument(url)
        let (token, told) = notices(of: opened.store)
        defer { token.cancel() }
        try opened.store.add(Attraction(name: "One"))
        try await opened.saver.flush()

        let otherURL = folder.file("b.json")
        let other = try await OtherStoreProcess(otherURL, watch: nil)
        _ = try await other.add("Elsewhere", at: 0)
        try await other.close()
        #expect(rename(otherURL.path, url.path) == 0)
        try opened.store.add(Attraction(name: "Two"))
        try await opened.saver.flush()

        #expect(Set(try await attractionNames(in: url)) == ["One", "Two", "Elsewhere"])
        #expect(Set(opened.store.elements.map(\.name)) == ["One", "Two", "Elsewhere"])
        #expect(told().contains(SaverNotice.unrelated), "\(told())")
        #expect(!told().contains { $0.contains("deleted in another process") }, "\(told())")
    }

    @Test("two older copies put back one after the other bring back no row deleted since")
    func twoCopiesPutBack() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        let opened = try await openDocument(url, watch: .milliseconds(10))
        let (token, told) = notices(of: opened.store)
        defer { token.cancel() }
        try opened.store.add(Attraction(name: "One"))
        try await opened.saver.flush()
        let copy1 = try Data(contentsOf: url)
        let x = Attraction(name: "X")
        try opened.store.add(x)
        try await opened.saver.flush()
        let copy2 = try Data(contentsOf: url)
        try opened.store.add(Attraction(name: "Y"))
        _ = try opened.store.delete(at: 1)
        try await opened.saver.flush()

        try copy1.write(to: url, options: .atomic)
        #expect(await eventually { told().filter { $0 == SaverNotice.older }.count == 1 })
        // Before or after the list replaced the first copy: older either way.
        try copy2.write(to: url, options: .atomic)
        #expect(await eventually { told().filter { $0 == SaverNotice.older }.count == 2 })
        try await opened.saver.flush()

        #expect(try await attractionNames(in: url) == ["One", "Y"])
        #expect(opened.store.elements.map(\.name) == ["One", "Y"])
    }

    @Test(
        "a copy edited by another program and put back is merged with no base: no row of either is lost"
    )
    func forkedCopy() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        let opened = try await openDocument(url)
        let (token, told) = notices(of: opened.store)
        defer { token.cancel() }
        try opened.store.add(Attraction(name: "One"))
        try await opened.saver.flush()
        let work = folder.file("work.json")
        try FileManager.default.copyItem(at: url, to: work)
        try opened.store.add(Attraction(name: "Three"))
        try await opened.saver.flush()

        let other = try await OtherStoreProcess(work, watch: nil)
        _ = try await other.add("W1", at: 1)
        _ = try await other.add("W2", at: 2)
        try await other.close()
        #expect(rename(work.path, url.path) == 0)
        try opened.store.add(Attraction(name: "Four"))
        try await opened.saver.flush()

        #expect(Set(try await attractionNames(in: url)) == ["One", "Three", "W1", "W2", "Four"])
        #expect(told().contains(SaverNotice.unrelated), "\(told())")
        #expect(!told().contains { $0.contains("deleted in another process") }, "\(told())")
    }

    @Test(
        "a store that missed a copy put back and saved again elsewhere loses none of its own saved rows"
    )
    func missedTheCopy() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        let opened = try await openDocument(url)
        let one = Attraction(name: "One")
        try opened.store.add(one)
        try opened.store.add(Attraction(name: "Two"))
        try await opened.saver.flush()
        let copy = try Data(contentsOf: url)
        try opened.store.add(Attraction(name: "Three"))
        _ = try opened.store.delete(at: 0)
        try await opened.saver.flush()

        try copy.write(to: url, options: .atomic)
        let other = try await OtherStoreProcess(url, watch: nil)
        _ = try await other.add("Four", at: 2)
        try await other.run("flush")
        _ = try await other.add("Five", at: 3)
        try await other.close()
        try opened.store.add(Attraction(name: "Six"))
        try await opened.saver.flush()

        let kept = Set(try await attractionNames(in: url))
        #expect(kept.isSuperset(of: ["Two", "Three", "Four", "Five", "Six"]), "\(kept)")
    }

    @Test(
        "a recent copy put back after several older ones is still older: the saves most recently made stay in view"
    )
    func recentCopyAfterOldOnes() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        let opened = try await openDocument(url, watch: .milliseconds(10))
        let (token, told) = notices(of: opened.store)
        defer { token.cancel() }
        for index in 0..<SaveHistory.limit {
            try opened.store.add(Attraction(name: "Row \(index)"))
            try await opened.saver.flush()
        }
        let old = try Data(contentsOf: url)
        for index in 0..<6 {
            try opened.store.add(Attraction(name: "k\(index)"))
            try await opened.saver.flush()
        }
        try opened.store.add(Attraction(name: "Gone"))
        try await opened.saver.flush()
        let recent = try Data(contentsOf: url)
        _ = try opened.store.delete(at: opened.store.elements.count - 1)
        try await opened.saver.flush()

        for round in 1...5 {
            try old.write(to: url, options: .atomic)
            #expect(await eventually { told().filter { $0 == SaverNotice.older }.count == round })
            try await opened.saver.flush()
        }
        try recent.write(to: url, options: .atomic)
        #expect(await eventually { told().filter { $0 == SaverNotice.older }.count == 6 })
        try await opened.saver.flush()

        #expect(!(try await attractionNames(in: url)).contains("Gone"))
        #expect(!told().contains(SaverNotice.unrelated), "\(told())")
    }

    @Test(
        "a file deleted and made again by another process from the list it had is merged against the last one: its deletion stands"
    )
    func deletedThenMadeAgain() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        let opened = try await openDocument(url, watch: .milliseconds(10))
        let (token, told) = notices(of: opened.store)
        defer { token.cancel() }
        try opened.store.add(Attraction(name: "Drop"))
        try opened.store.add(Attraction(name: "Keep"))
        try await opened.saver.flush()
        let other = try await OtherStoreProcess(url, watch: .milliseconds(10))

        try FileManager.default.removeItem(at: url)
        #expect(await eventually { told().contains(SaverNotice.deleted) })
        try await other.run("delete 0")
        try await other.run("flush")

        #expect(await eventually { opened.store.elements.map(\.name) == ["Keep"] })
        try await opened.saver.flush()
        #expect(try await attractionNames(in: url) == ["Keep"])
        #expect(told().contains("“Drop” was deleted in another process"), "\(told())")
        try await other.close()
    }

    @Test(
        "a last flush that checks replaces an older copy put back after the last save, with nothing pending"
    )
    func lastFlushLooks() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        let opened = try await openDocument(url)
        let copy = try await saveOneThenTwo(opened, at: url)
        try copy.write(to: url, options: .atomic)

        try await opened.saver.flush()
        #expect(try await attractionNames(in: url) == ["One"], "a plain flush has nothing to write")
        try await opened.saver.flushAndLook()

        #expect(try await attractionNames(in: url) == ["One", "Two"])
    }

    @Test(
        "an edit made by a notice's handler while another process's save is taken in is saved, not dropped"
    )
    func editFromNoticeHandlerSaved() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        let opened = try await openDocument(url, watch: .milliseconds(10))
        try opened.store.add(Attraction(name: "Louvre"))
        try opened.store.add(Attraction(name: "Orsay"))
        try await opened.saver.flush()
        let store = opened.store
        var answered = false
        // A handler that changes the list it is being told about: it puts a row back.
        let token = store.notice.observe(options: .new) { change in
            guard !answered, change.newValue??.message.contains("deleted") == true else { return }
            answered = true
            try? store.add(Attraction(name: "Put back"))
        }
        defer { token.cancel() }

        let other = try await OtherStoreProcess(url, watch: nil)
        try await other.run("delete 1")
        try await other.run("flush")
        #expect(await eventually { store.elements.map(\.name) == ["Louvre", "Put back"] })
        try await opened.saver.flush()

        #expect(try await attractionNames(in: url) == ["Louvre", "Put back"])
        try await other.close()
    }

    @Test("rows another process deleted leave this store too, and a notice names them")
    func deletionsNamed() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        let opened = try await openDocument(url, watch: .milliseconds(10))
        let (token, told) = notices(of: opened.store)
        defer { token.cancel() }
        try opened.store.add(Attraction(name: "Louvre"))
        try opened.store.add(Attraction(name: "Orsay"))
        try await opened.saver.flush()

        let other = try await OtherStoreProcess(url, watch: nil)
        try await other.run("delete 1")
        try await other.run("flush")

        #expect(await eventually { opened.store.elements.map(\.name) == ["Louvre"] })
        #expect(told() == ["“Orsay” was deleted in another process"])
        try await other.close()
    }
}
