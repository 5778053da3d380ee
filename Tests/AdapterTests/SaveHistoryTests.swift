import AttractionsStorage
import Foundation
import MVCDocumentStore
import MVCListStore
import MVCModel
import MVCObservation
import MVCStore
import Testing

/// What a JSON document writes to name its saves, what it loads and refuses, and how a file's
/// saves stand to what a process last read or wrote.
@MainActor
@Suite("A document file names its saves")
struct SaveHistoryTests {
    @Test("each save names itself first, then the saves its version came after, 32 at most")
    func savesNamed() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        let opened = try await openDocument(url)

        try opened.store.add(Attraction(name: "Louvre"))
        try await opened.saver.flush()
        let first = try fileSaves(in: url)
        try opened.store.add(Attraction(name: "Orsay"))
        try await opened.saver.flush()
        let second = try fileSaves(in: url)
        let file = DocumentFile(url: url, format: .attractions)
        try await file.overwrite(with: [Attraction(name: "Eiffel")])
        let third = try fileSaves(in: url)

        #expect(first.count == 1 && UUID(uuidString: first[0]) != nil)
        #expect(second.count == 2 && Array(second.dropFirst()) == first)
        #expect(third.count == 3 && Array(third.dropFirst()) == second, "a plain save goes on")
        for _ in 0..<40 { try await file.overwrite(with: []) }
        #expect(try fileSaves(in: url).count == SaveHistory.limit)

        let other = folder.file("b.json")
        try await DocumentFile(url: other, format: .attractions).create([])
        #expect(try fileSaves(in: other).count == 1, "a new file names its own save alone")
    }

    @Test("a file written before saves were named loads, and its next save names itself")
    func unnamedFileLoads() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        let id = UUID().uuidString
        try Data(
            #"{"formatVersion":2,"document":[{"id":"\#(id)","name":"Louvre","notes":""}]}"#.utf8
        ).write(to: url)
        let opened = try await openDocument(url)

        try opened.store.add(Attraction(name: "Orsay"))
        try await opened.saver.flush()

        #expect(try await attractionNames(in: url) == ["Louvre", "Orsay"])
        #expect(try fileSaves(in: url).count == 1)
    }

    @Test(
        "saves that are not a list of save ids are refused, the field named, and the file left as it was",
        arguments: [
            (#""saves": "x""#, "the field saves: it should be a list of save ids, each a string"),
            (#""saves": null"#, "the field saves: it should be a list of save ids, each a string"),
            (#""saves": [1]"#, "the field saves: it should be a list of save ids, each a string"),
            (
                #""saves": ["6F9619FF-8B86-D011-B42D-00C04FC964FF", ""]"#,
                "the field saves: save id 2 is not a UUID"
            ),
            (#""saves": ["a b"]"#, "the field saves: save id 1 is not a UUID"),
            (#""saves": ["6F9619FF8B86D011B42D00C04FC964FF"]"#, "save id 1 is not a UUID"),
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
        "a save over an older copy names the copy's newest save and this process's own first, so that whoever last saw either finds it"
    )
    func saveOverOlderCopyNamesBoth() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        let opened = try await openDocument(url)
        try opened.store.add(Attraction(name: "Row"))
        try await opened.saver.flush()
        let copy = try Data(contentsOf: url)
        let copySave = try fileSaves(in: url)[0]
        for index in 0..<(SaveHistory.limit + 8) {
            try opened.store.add(Attraction(name: "Row \(index)"))
            try await opened.saver.flush()
        }
        let ownSave = try fileSaves(in: url)[0]

        try copy.write(to: url, options: .atomic)
        try opened.store.add(Attraction(name: "Last"))
        try await opened.saver.flush()

        let named = try fileSaves(in: url)
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
}
