import Foundation
import MVCModel
import MVCObservation
import MVCPersistence
import MVCStore
import Testing

/// A JSON document numbers its saves, so that what an older copy or another list lacks is not
/// read as deleted.
///
/// The other program is a real one: copies made by this test, as `cp` makes them, or
/// ``OtherStoreProcess``.
@MainActor
@Suite("A document's revisions")
struct RevisionTests {
    private func open(_ url: URL, watch: Duration? = nil) async throws
        -> (store: AttractionStore, saver: CoalescingSaver<[Attraction]>)
    {
        try await AttractionStore.open(at: url, delay: .milliseconds(20), watchInterval: watch)
    }

    /// The envelope's numbering, as the file holds it.
    private func numbering(_ url: URL) throws -> (documentID: String?, revision: Int?) {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        return (object?["documentID"] as? String, object?["revision"] as? Int)
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

    @Test("each save keeps the file's document id and writes a revision one higher")
    func savesCountUp() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        let opened = try await open(url)

        try opened.store.add(Attraction(name: "Louvre"))
        try await opened.saver.flush()
        let first = try numbering(url)
        try opened.store.add(Attraction(name: "Orsay"))
        try await opened.saver.flush()
        let second = try numbering(url)
        try await DocumentFile(url: url, format: .attractions).save([Attraction(name: "Eiffel")])
        let third = try numbering(url)

        #expect(first.revision == 1)
        #expect(second.revision == 2)
        #expect(third.revision == 3, "a plain save goes on counting")
        #expect(UUID(uuidString: first.documentID ?? "") != nil)
        #expect(second.documentID == first.documentID)
        #expect(third.documentID == first.documentID)

        let other = folder.file("b.json")
        try await DocumentFile(url: other, format: .attractions).create([])
        #expect(try numbering(other).revision == 1)
        #expect(try numbering(other).documentID != first.documentID, "a new file is a new document")
    }

    @Test("a file written before revisions loads, and its next save numbers it")
    func unnumberedFileLoads() async throws {
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
        #expect(try numbering(url).revision == 1)
        #expect(try numbering(url).documentID != nil)
    }

    @Test("a file at the highest revision a number can hold is saved again, not overflowed")
    func highestRevision() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        try Data(
            #"{"formatVersion":2,"document":[],"documentID":"A","revision":\#(Int.max)}"#.utf8
        ).write(to: url)
        let opened = try await open(url)

        try opened.store.add(Attraction(name: "Louvre"))
        try await opened.saver.flush()
        try await DocumentFile(url: url, format: .attractions).save([])

        #expect(try numbering(url).revision == Int.max)
        #expect(try numbering(url).documentID == "A")
    }

    @Test(
        "a revision that is not a count of saves, or a document id that is not text, is refused and named",
        arguments: [
            (#""revision": -1"#, "a revision counts saves, so it is never below 0"),
            (#""revision": "3""#, "the field revision should be a number"),
            (#""documentID": 7"#, "the field documentID should be a string"),
        ])
    func badNumberingRefused(field: String, reason: String) async throws {
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
        try copy.write(to: url)
        try opened.store.add(Attraction(name: "Three"))
        try await opened.saver.flush()

        #expect(try await names(url) == ["One", "Two", "Three"])
        #expect(opened.store.elements.map(\.name) == ["One", "Two", "Three"])
        #expect(try numbering(url).revision == 3, "one more than the highest seen, not the copy's")
        #expect(
            told().contains {
                $0.hasPrefix(
                    "the file went back to an older copy (revision 1, after this program had read or written revision 2)"
                )
            }, "\(told())")
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
        try copy.write(to: url)

        #expect(await eventually { told().contains { $0.contains("went back to an older copy") } })
        try await opened.saver.flush()
        #expect(try await names(url) == ["One", "Two"])
        #expect(opened.store.elements.map(\.name) == ["One", "Two"])
        #expect(try numbering(url).revision == 3)
        #expect(told().count == 1, "told once: \(told())")
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
        try copy.write(to: url)
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
        #expect(told().contains { $0.contains("put a different list in the file's place") })
        #expect(!told().contains { $0.contains("deleted in another process") }, "\(told())")
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
