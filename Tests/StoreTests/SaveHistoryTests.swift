import Foundation
import MVCModel
import MVCObservation
import MVCPersistence
import MVCStore
import Testing

/// A JSON document names its saves, so that what an older copy, a copy edited elsewhere or
/// another list lacks is not read as deleted.
///
/// The other program is a real one: copies made by this test, as `cp` makes them, or
/// ``OtherStoreProcess``.
@MainActor
@Suite("A document file names its saves")
struct SaveHistoryTests {
    private func open(_ url: URL, watch: Duration? = nil) async throws
        -> (store: AttractionStore, saver: CoalescingSaver<[Attraction]>)
    {
        try await AttractionStore.open(at: url, delay: .milliseconds(20), watchInterval: watch)
    }

    /// The saves the file names, newest first.
    private func saves(_ url: URL) throws -> [String] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        return object?["saves"] as? [String] ?? []
    }

    private func names(_ url: URL) async throws -> [String] {
        try await DocumentFile(url: url, format: .attractions).load()?.map(\.name) ?? []
    }

    /// Every notice the store posts from now on.
    private func notices(of store: AttractionStore) -> (ObservationToken, () -> [String]) {
        var messages: [String] = []
        let token = store.notice.observe(options: .new) { change in
            if let notice = change.newValue ?? nil { messages.append(notice.message) }
        }
        return (token, { messages })
    }

    private func eventually(_ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        while !condition() && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition()
    }

    @Test("each save names itself first, then the saves its version came after, 32 at most")
    func savesNamed() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        let opened = try await open(url)

        try opened.store.add(Attraction(name: "Louvre"))
        try await opened.saver.flush()
        let first = try saves(url)
        try opened.store.add(Attraction(name: "Orsay"))
        try await opened.saver.flush()
        let second = try saves(url)
        let file = DocumentFile(url: url, format: .attractions)
        try await file.save([Attraction(name: "Eiffel")])
        let third = try saves(url)

        #expect(first.count == 1 && UUID(uuidString: first[0]) != nil)
        #expect(second.count == 2 && Array(second.dropFirst()) == first)
        #expect(third.count == 3 && Array(third.dropFirst()) == second, "a plain save goes on")
        for _ in 0..<40 { try await file.save([]) }
        #expect(try saves(url).count == SaveHistory.limit)

        let other = folder.file("b.json")
        try await DocumentFile(url: other, format: .attractions).create([])
        #expect(try saves(other).count == 1, "a new file names its own save alone")
    }

    @Test("a file written before saves were named loads, and its next save names itself")
    func unnamedFileLoads() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        let id = UUID().uuidString
        try Data(
            #"{"formatVersion":2,"document":[{"id":"\#(id)","name":"Louvre","notes":""}]}"#.utf8
        ).write(to: url)
        let opened = try await open(url)

        try opened.store.add(Attraction(name: "Orsay"))
        try await opened.saver.flush()

        #expect(try await names(url) == ["Louvre", "Orsay"])
        #expect(try saves(url).count == 1)
    }

    @Test(
        "saves that are not a list of save ids are refused, the field named, and the file left as it was",
        arguments: [
            (#""saves": "x""#, "the field saves: it should be a list of save ids, each a string"),
            (#""saves": null"#, "the field saves: it should be a list of save ids, each a string"),
            (#""saves": [1]"#, "the field saves: it should be a list of save ids, each a string"),
            (#""saves": ["a", ""]"#, "the field saves: save id 2 is not 1 to 64 letters"),
            (#""saves": ["a b"]"#, "the field saves: save id 1 is not 1 to 64 letters"),
            (#""saves": ["a"], "saves": []"#, "“saves”"),
        ])
    func badSavesRefused(field: String, reason: String) async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        let bytes = Data(#"{"formatVersion": 2, "document": [], \#(field)}"#.utf8)
        try bytes.write(to: url)

        await #expect {
            _ = try await DocumentFile(url: url, format: .attractions).load()
        } throws: { error in
            "\(error)".contains(reason)
        }
        #expect(try Data(contentsOf: url) == bytes, "the file was left as it was")
    }

    @Test(
        "an older copy put back under a saving store loses nothing saved since, and the store says so"
    )
    func olderCopyMetBySave() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        let opened = try await open(url)
        let (token, told) = notices(of: opened.store)
        defer { token.cancel() }

        try opened.store.add(Attraction(name: "One"))
        try await opened.saver.flush()
        let copy = try Data(contentsOf: url)
        try opened.store.add(Attraction(name: "Two"))
        try await opened.saver.flush()
        try copy.write(to: url, options: .atomic)
        try opened.store.add(Attraction(name: "Three"))
        try await opened.saver.flush()

        #expect(try await names(url) == ["One", "Two", "Three"])
        #expect(opened.store.elements.map(\.name) == ["One", "Two", "Three"])
        #expect(told().contains(SaverNotice.older), "\(told())")
        #expect(!told().contains { $0.contains("deleted in another process") }, "\(told())")
    }

    @Test("an older copy put back under a watching store is told at once, and replaced by the list")
    func olderCopyMetByWatch() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        let opened = try await open(url, watch: .milliseconds(10))
        let (token, told) = notices(of: opened.store)
        defer { token.cancel() }

        try opened.store.add(Attraction(name: "One"))
        try await opened.saver.flush()
        let copy = try Data(contentsOf: url)
        try opened.store.add(Attraction(name: "Two"))
        try await opened.saver.flush()
        try copy.write(to: url, options: .atomic)

        #expect(await eventually { told().contains { $0.contains("went back to an older copy") } })
        try await opened.saver.flush()
        #expect(try await names(url) == ["One", "Two"])
        #expect(opened.store.elements.map(\.name) == ["One", "Two"])
        #expect(told() == [SaverNotice.older], "told once")
    }

    @Test(
        "a list another process saves over a copy put back is taken in as a later version, with its deletions"
    )
    func laterThanTheCopy() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        let opened = try await open(url, watch: .milliseconds(10))
        let (token, told) = notices(of: opened.store)
        defer { token.cancel() }
        try opened.store.add(Attraction(name: "One"))
        try await opened.saver.flush()
        let copy = try Data(contentsOf: url)
        try opened.store.add(Attraction(name: "Two"))
        try await opened.saver.flush()
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
        let opened = try await open(url)
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

        #expect(Set(try await names(url)) == ["One", "Two", "Elsewhere"])
        #expect(Set(opened.store.elements.map(\.name)) == ["One", "Two", "Elsewhere"])
        #expect(told().contains(SaverNotice.unrelated), "\(told())")
        #expect(!told().contains { $0.contains("deleted in another process") }, "\(told())")
    }

    @Test("two older copies put back one after the other bring back no row deleted since")
    func twoCopiesPutBack() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        let opened = try await open(url, watch: .milliseconds(10))
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

        #expect(try await names(url) == ["One", "Y"])
        #expect(opened.store.elements.map(\.name) == ["One", "Y"])
    }

    @Test(
        "a copy edited by another program and put back is merged with no base: no row of either is lost"
    )
    func forkedCopy() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        let opened = try await open(url)
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

        #expect(Set(try await names(url)) == ["One", "Three", "W1", "W2", "Four"])
        #expect(told().contains(SaverNotice.unrelated), "\(told())")
        #expect(!told().contains { $0.contains("deleted in another process") }, "\(told())")
    }

    @Test(
        "a store that missed a copy put back and saved again elsewhere loses none of its own saved rows"
    )
    func missedTheCopy() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        let opened = try await open(url)
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

        let kept = Set(try await names(url))
        #expect(kept.isSuperset(of: ["Two", "Three", "Four", "Five", "Six"]), "\(kept)")
    }

    @Test(
        "a recent copy put back after several older ones is still older: the saves most recently made stay in view"
    )
    func recentCopyAfterOldOnes() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        let opened = try await open(url, watch: .milliseconds(10))
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

        #expect(!(try await names(url)).contains("Gone"))
        #expect(!told().contains(SaverNotice.unrelated), "\(told())")
    }

    @Test(
        "a file deleted and made again by another process from the list it had is merged against the last one: its deletion stands"
    )
    func deletedThenMadeAgain() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        let opened = try await open(url, watch: .milliseconds(10))
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
        #expect(try await names(url) == ["Keep"])
        #expect(told().contains("“Drop” was deleted in another process"), "\(told())")
        try await other.close()
    }

    @Test(
        "a save over an older copy names the copy's newest save and this process's own first, so that whoever last saw either finds it"
    )
    func saveOverOlderCopyNamesBoth() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        let opened = try await open(url)
        try opened.store.add(Attraction(name: "Row"))
        try await opened.saver.flush()
        let copy = try Data(contentsOf: url)
        let copySave = try saves(url)[0]
        for index in 0..<(SaveHistory.limit + 8) {
            try opened.store.add(Attraction(name: "Row \(index)"))
            try await opened.saver.flush()
        }
        let ownSave = try saves(url)[0]

        try copy.write(to: url, options: .atomic)
        try opened.store.add(Attraction(name: "Last"))
        try await opened.saver.flush()

        let named = try saves(url)
        #expect(Array(named.dropFirst().prefix(3)) == [copySave, ownSave, named[3]])
        #expect(named[3] != copySave && named.count == SaveHistory.limit)
    }

    @Test(
        "how a file stands to a snapshot: its newest save, and the saves it names, against the snapshot's"
    )
    func lineageRules() {
        func snapshot(_ history: [String], lineage: [String] = []) -> DocumentSnapshot<String> {
            DocumentSnapshot(
                document: "", bytes: [], history: SaveHistory(history),
                lineage: SaveHistory(lineage, limit: SaveHistory.lineageLimit))
        }
        let plain = snapshot(["b", "a"])
        #expect(plain.lineage(of: SaveHistory(["c", "b", "a"])) == .later)
        #expect(plain.lineage(of: SaveHistory(["b", "a"])) == .later, "the same save, edited")
        #expect(plain.lineage(of: SaveHistory(["a"])) == .older)
        #expect(plain.lineage(of: SaveHistory(["x", "a"])) == .unrelated)
        #expect(plain.lineage(of: SaveHistory([])) == .unrelated)

        // Of an older copy ("a"), by a process whose own newest save is "c".
        let copy = snapshot(["a"], lineage: ["c", "b", "a"])
        #expect(copy.lineage(of: SaveHistory(["d", "a"])) == .later)
        #expect(copy.lineage(of: SaveHistory(["e", "c", "b"])) == .later, "came after ours")
        #expect(copy.lineage(of: SaveHistory(["b", "a"])) == .older)

        // Of a file from before saves, taken in over a named one: a named copy is still older.
        let unnamed = snapshot([], lineage: ["b", "a"])
        #expect(unnamed.lineage(of: SaveHistory(["a"])) == .older)
        #expect(unnamed.lineage(of: SaveHistory(["z"])) == .later)
    }

    @Test("rows another process deleted leave this store too, and a notice names them")
    func deletionsNamed() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        let opened = try await open(url, watch: .milliseconds(10))
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
