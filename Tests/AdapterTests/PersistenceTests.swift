import AttractionsStorage
import Foundation
import MVCDocumentStore
import MVCListStore
import MVCModel
import MVCStore
import Testing

/// The version this build writes, from the format itself: a version bump edits no test.
private let currentVersion = FileFormat<[Attraction]>.attractions.currentVersion

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Document files")
struct PersistenceTests {
    private let attractions = [
        Attraction(name: "Louvre", notes: "Mona Lisa"),
        Attraction(name: "Sacré-Cœur", notes: "views over Paris"),
    ]

    private func file(in folder: TemporaryFolder, _ name: String = "attractions.json")
        -> DocumentFile<[Attraction]>
    {
        DocumentFile(url: folder.file(name), format: .attractions)
    }

    @Test("what is saved loads back equal")
    func roundTrip() async throws {
        let folder = try TemporaryFolder()
        let file = file(in: folder)

        try await file.overwrite(with: attractions)

        #expect(try await file.load() == attractions)
    }

    @Test("a missing file loads as no document, and creates nothing")
    func missingFile() async throws {
        let folder = try TemporaryFolder()

        #expect(try await file(in: folder).load() == nil)
        #expect(try folder.contents().isEmpty)
    }

    @Test("saving creates missing folders and leaves no temporary file behind, only its lock")
    func savingCreatesFolders() async throws {
        let folder = try TemporaryFolder()
        let file = DocumentFile(url: folder.file("a/b/attractions.json"), format: .attractions)

        try await file.overwrite(with: attractions)
        try await file.overwrite(with: [])

        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.file("a/b").path).sorted()
                == [".attractions.json.lock", "attractions.json"])
        #expect(try await file.load() == [])
    }

    @Test("the file states its format version")
    func formatVersionWritten() async throws {
        let folder = try TemporaryFolder()
        try await file(in: folder).overwrite(with: attractions)

        let object = try JSONSerialization.jsonObject(
            with: Data(contentsOf: folder.file("attractions.json")))

        #expect((object as? [String: Any])?["formatVersion"] as? Int == currentVersion)
    }

    @Test(
        "a fixture of every format version up to the current one loads, with the same attractions",
        arguments: 1...currentVersion)
    func everyVersionLoads(version: Int) async throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appending(path: "Fixtures")
        let fixture = fixtures.appending(path: "attractions-v\(version).json")
        let folder = try TemporaryFolder()
        try Data(contentsOf: fixture).write(to: folder.file("attractions.json"))

        let loaded = try #require(try await file(in: folder).load())

        #expect(loaded.map(\.name) == ["Louvre", "Musée d'Orsay"])
        #expect(
            loaded.map(\.id.description) == [
                "4F0B5C4E-0F1A-4C55-9C3D-2B6F4A8E9D10", "9A1C3E5F-7B2D-4E6F-8A0B-1C2D3E4F5A6B",
            ])
    }

    @Test("a version 1 file (names only) is migrated on load, and the file is left as it was")
    func migration() async throws {
        let folder = try TemporaryFolder()
        let id = UUID()
        let old =
            #"{"formatVersion": 1, "document": [{"id": "\#(id.uuidString)", "name": "Louvre"}]}"#
        try Data(old.utf8).write(to: folder.file("attractions.json"))

        let loaded = try await file(in: folder).load()

        #expect(loaded == [Attraction(id: Attraction.ID(rawValue: id), name: "Louvre", notes: "")])
        #expect(try String(contentsOf: folder.file("attractions.json"), encoding: .utf8) == old)
    }

    @Test("a file from a newer version is refused with the versions named, and left untouched")
    func newerVersionRefused() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("attractions.json").path
        let newer = Data(
            #"{"formatVersion": \#(currentVersion + 1), "document": {"lists": []}}"#.utf8)
        try newer.write(to: folder.file("attractions.json"))

        await #expect(
            throws: PersistenceError.newerVersion(
                path: path, found: currentVersion + 1, supported: currentVersion)
        ) {
            try await file(in: folder).load()
        }
        #expect(try contents(of: folder.file("attractions.json")) == newer)
    }

    @Test(
        "a corrupt or truncated file is a typed error naming the path and the problem, and is left byte for byte",
        arguments: [
            (
                "{\n  \"formatVersion\": \(currentVersion),\n  oops\n}",
                "line 3, column 3 is not valid JSON"
            ),
            ("", "the file is empty"),
            (
                "{\"formatVersion\": \(currentVersion), \"document\": "
                    + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}",
                "line 1, column 546: its arrays and objects are nested too deeply there"
            ),
            (
                #"{"formatVersion": 1e400, "document": []}"#,
                "Number 1e400 is too large a number to read"
            ),
            (
                "[1, 2]",
                "the top level should be an object but found an array"
            ),
            (
                #"{"formatVersion": \#(currentVersion), "document": [{"id": "x", "name": "a", "notes": ""}]}"#,
                "the field document[0].id"
            ),
            (
                #"{"formatVersion": \#(currentVersion), "document": [{"id": "4F0B5C4E-0F1A-4C55-9C3D-2B6F4A8E9D10", "name": "a", "notes": "", "note": "typo"}]}"#,
                "line 1, column 108: this version knows no field “note”, and a save would drop it"
            ),
            (
                #"{"formatVersion": \#(currentVersion), "document": [], "comment": "mine"}"#,
                "line 1, column 38: this version knows no field “comment”, and a save would drop it"
            ),
            (
                #"{"formatVersion": 2.5, "document": []}"#,
                "the field formatVersion: a format version is a whole number, not 2.5"
            ),
            (
                #"{"formatVersion": "2", "document": []}"#,
                "the field formatVersion should be a number but found a string"
            ),
            (
                #"{"formatVersion": \#(currentVersion), "document": [{"id": "4F0B5C4E-0F1A-4C55-9C3D-2B6F4A8E9D10", "name": "A", "name": "B", "notes": ""}]}"#,
                "line 1, column 95: the field “name” is given twice in one object, and a save would keep only one of its values"
            ),
            (
                #"{"formatVersion": \#(currentVersion), "document": [{"id": "4F0B5C4E-0F1A-4C55-9C3D-2B6F4A8E9D10", "name": "A", "notes": "", "formatVersion": 9}]}"#,
                "line 1, column 108: this version knows no field “formatVersion”, and a save would drop it"
            ),
            (
                #"{"formatVersion": 1, "document": [{"id": "4F0B5C4E-0F1A-4C55-9C3D-2B6F4A8E9D10", "name": "A", "notes": "kept"}]}"#,
                "line 1, column 95: this version knows no field “notes”, and a save would drop it"
            ),
            (
                #"{"formatVersion": \#(currentVersion), "document": [{"id": "4F0B5C4E-0F1A-4C55-9C3D-2B6F4A8E9D10", "name": "\ud800", "notes": ""}]}"#,
                "a \\u escape is half of a UTF-16 surrogate pair without its other half"
            ),
            (
                #"{"formatVersion": \#(currentVersion), "document": [{"id": "4F0B5C4E-0F1A-4C55-9C3D-2B6F4A8E9D10", "name": "A", "notes": null}]}"#,
                "the field document[0].notes is null where a string should be"
            ),
            (
                #"{"formatVersion": \#(currentVersion), "document": [{"id": "4F0B5C4E-0F1A-4C55-9C3D-2B6F4A8E9D10", "name": "A", "notes": "", "\u001b[2J": 1}]}"#,
                "line 1, column 108: this version knows no field “\\u{1b}[2J”, and a save would drop it"
            ),

        ]
    )
    func corruptFile(fileText: String, problem: String) async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("attractions.json")
        try Data(fileText.utf8).write(to: url)

        do {
            _ = try await file(in: folder).load()
            Issue.record("a corrupt file loaded")
        } catch .corrupt(let path, let reason) {
            #expect(path == url.path)
            #expect(reason.hasPrefix(problem), "reason: \(reason)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
        #expect(try contents(of: url) == Data(fileText.utf8))
    }

    @Test(
        "field names are read as JSON reads them: escapes decoded, and a value that looks like a field is a value"
    )
    func fieldNamesAsJSONReadsThem() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("attractions.json")
        let id = UUID().uuidString
        // "n\u0061me" is "name"; the notes hold text shaped like a field.
        try Data(
            #"{"formatVersion": \#(currentVersion), "document": [{"id": "\#(id)", "n\u0061me": "a", "notes": "\"x\": 1"}]}"#
                .utf8
        ).write(to: url)
        let loaded = try await file(in: folder).load()
        #expect(loaded?.map(\.notes) == [#""x": 1"#])

        try Data(
            #"{"formatVersion": \#(currentVersion), "document": [{"id": "\#(id)", "name": "a", "notes": "",\#n "st\u0061rs": 5}]}"#
                .utf8
        ).write(to: url)
        await #expect(
            throws: PersistenceError.corrupt(
                path: url.path,
                reason:
                    "line 2, column 2: this version knows no field “stars”, and a save would drop it"
            )
        ) { try await file(in: folder).load() }
    }

    @Test("a file that is not UTF-8 is refused naming the first bad byte's line and column")
    func notUTF8() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("attractions.json")
        var bytes = Data(
            "{\"formatVersion\": \(currentVersion), \"document\": [\n{\"id\": \"\(UUID().uuidString)\", \"name\": \"Caf"
                .utf8)
        bytes.append(0xE9)  // "é" as Latin-1 writes it
        bytes.append(contentsOf: Data("\", \"notes\": \"\"}]}".utf8))
        try bytes.write(to: url)

        await #expect(
            throws: PersistenceError.corrupt(
                path: url.path,
                reason: "line 2, column 60 is not UTF-8 text (save the file as UTF-8)")
        ) { try await file(in: folder).load() }
        #expect(try contents(of: url) == bytes)
    }

    @Test("a file cut short at any byte fails to load with a clear error and is not changed")
    func truncatedAnywhere() async throws {
        let folder = try TemporaryFolder()
        let file = file(in: folder)
        try await file.overwrite(with: attractions)
        let whole = try contents(of: file.url)

        for length in stride(from: 0, to: whole.count, by: 7) {
            let cut = whole.prefix(length)
            try cut.write(to: file.url)
            await #expect(throws: PersistenceError.self, "cut at \(length) bytes") {
                try await file.load()
            }
            #expect(try contents(of: file.url) == cut)
        }
    }

    @Test("saving where a file stands in for the folder is a typed error, and changes nothing")
    func folderIsAFile() async throws {
        let folder = try TemporaryFolder()
        try Data("not a folder".utf8).write(to: folder.file("blocker"))
        let file = DocumentFile(url: folder.file("blocker/attractions.json"), format: .attractions)

        await #expect(
            throws: PersistenceError.unwritable(
                path: file.path, reason: "\(folder.file("blocker").path) is a file, not a folder")
        ) {
            try await file.overwrite(with: attractions)
        }
        #expect(try String(contentsOf: folder.file("blocker"), encoding: .utf8) == "not a folder")
    }

    // The superuser may write anywhere, so the check only means something for other users.
    @Test(
        "saving into a read-only folder is a typed error, and the old file is intact",
        .enabled(if: geteuid() != 0))
    func readOnlyFolder() async throws {
        let folder = try TemporaryFolder()
        let file = file(in: folder)
        try await file.overwrite(with: attractions)
        chmod(folder.url.path, 0o555)
        defer { chmod(folder.url.path, 0o755) }

        await #expect(throws: PersistenceError.self) { try await file.overwrite(with: []) }
        #expect(try await file.load() == attractions)
    }

    @Test("a folder where the file should be is unreadable, not empty")
    func folderInsteadOfFile() async throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(
            at: folder.file("attractions.json"), withIntermediateDirectories: true)

        await #expect(
            throws: PersistenceError.unreadable(
                path: folder.file("attractions.json").path, reason: "it is a folder, not a file")
        ) {
            try await file(in: folder).load()
        }
    }

    @Test("errors name the file and say what to do")
    func errorWording() {
        #expect(
            PersistenceError.newerVersion(path: "/tmp/a.json", found: 3, supported: 2).description
                == "cannot read /tmp/a.json: it is in format version 3, and this program reads versions up to 2; use a newer version of the program"
        )
        #expect(
            PersistenceError.corrupt(path: "/tmp/a.json", reason: "the file is empty").description
                == "cannot read /tmp/a.json: it is not a valid document (the file is empty); the file was left untouched"
        )
    }
}
