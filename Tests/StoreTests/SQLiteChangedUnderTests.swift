import Foundation
import MVCModel
import MVCObservation
import MVCSQLiteStore
import MVCStore
import Testing

/// What another program can change around an open database besides the file itself.
///
/// Its folder, its tables, its rows, and the names a recovery file would take: each case from a
/// hostile run of the sample, with a real second process (Python's `sqlite3` module).
@MainActor
@Suite("The SQLite store when another program changes what is around it")
struct SQLiteChangedUnderTests {
    /// A store on a new database `d/s.sqlite` in a new folder, holding Louvre, written.
    private static func openInAFolder() async throws -> (
        folder: TemporaryFolder, url: URL, store: AttractionStore,
        persistence: SQLitePersistence<Attraction>
    ) {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(
            at: folder.file("d"), withIntermediateDirectories: true)
        let url = folder.file("d/s.sqlite")
        let (store, persistence) = try await AttractionStore.openDatabase(
            at: url, pollInterval: nil)
        try store.add(Attraction(name: "Louvre"))
        try await persistence.flush()
        return (folder, url, store, persistence)
    }

    @Test(
        "a database whose folder another program moves away is told once, and the list goes whole to its old path, the folder made again"
    )
    func folderMovedAway() async throws {
        let (folder, url, store, persistence) = try await Self.openInAFolder()
        let notices = Notices(store)

        try await OtherSQLiteProgram.run(OtherSQLiteProgram.lose, url, "move-folder")
        try store.add(Attraction(name: "Orsay"))
        try await persistence.flush()
        try await persistence.close()

        let recovered = folder.file("d/s.recovered.sqlite")
        #expect(notices.messages.count == 1, "\(notices.messages)")
        #expect(notices.messages.first?.contains(recovered.path) == true)
        #expect(try ListOnDisk.read(recovered).map(\.name) == ["Louvre", "Orsay"])
        // The file that moved with its folder is as it was left.
        #expect(try ListOnDisk.read(folder.file("d.moved/s.sqlite")).map(\.name) == ["Louvre"])
    }

    @Test(
        "a database with a name near the longest SQLite takes is recovered beside it under a shorter name"
    )
    func longNameRecovered() async throws {
        let folder = try TemporaryFolder()
        // 247 bytes: the longest name the store takes (SQLite adds "-journal").
        let url = folder.file(String(repeating: "s", count: 240) + ".sqlite")
        let (store, persistence) = try await AttractionStore.openDatabase(
            at: url, pollInterval: nil)
        try store.add(Attraction(name: "Louvre"))
        try await persistence.flush()

        try await OtherSQLiteProgram.run(OtherSQLiteProgram.lose, url, "delete")
        try store.add(Attraction(name: "Orsay"))
        try await persistence.flush()
        try await persistence.close()

        let recovered = persistence.url
        #expect(recovered.lastPathComponent.hasSuffix(".recovered.sqlite"))
        #expect(recovered.lastPathComponent.utf8.count <= 247)
        #expect(try ListOnDisk.read(recovered).map(\.name) == ["Louvre", "Orsay"])
    }

    @Test(
        "a recovery file is never made under a name another database's log is left at: the name is passed over, the log kept"
    )
    func recoveryBesideALeftoverLog() async throws {
        let (folder, url, store, persistence) = try await openWithLouvre()
        let leftover = folder.file("s.recovered.sqlite-wal")
        let bytes = Data("another database's log".utf8)
        try bytes.write(to: leftover)

        try await OtherSQLiteProgram.run(OtherSQLiteProgram.lose, url, "delete")
        try store.add(Attraction(name: "Orsay"))
        try await persistence.flush()
        try await persistence.close()

        #expect(persistence.url == folder.file("s.recovered-2.sqlite"))
        #expect(try ListOnDisk.read(persistence.url).map(\.name) == ["Louvre", "Orsay"])
        #expect(!FileManager.default.fileExists(atPath: folder.file("s.recovered.sqlite").path))
        #expect(try Data(contentsOf: leftover) == bytes)
    }

    @Test(
        "a new database is not made where another database's log or journal is left: refused, saying so, the leftover kept",
        arguments: ["-wal", "-journal"])
    func newDatabaseBesideALeftover(suffix: String) async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("s.sqlite")
        let leftover = URL(fileURLWithPath: url.path + suffix)
        let bytes = Data("another database's \(suffix)".utf8)
        try bytes.write(to: leftover)

        await #expect {
            try await SQLiteListFile.write([Attraction(name: "Louvre")], to: url)
        } throws: { error in
            "\(error)".contains(leftover.path)
        }
        await #expect {
            _ = try await AttractionStore.openDatabase(at: url, pollInterval: nil)
        } throws: { error in
            "\(error)".contains(leftover.path)
        }
        #expect(try folder.contents() == ["s.sqlite\(suffix)"])
        #expect(try Data(contentsOf: leftover) == bytes)
    }

    @Test(
        "a column another program renames is told once, and the list, its notes kept, goes beside the file: found by a look or by a write",
        arguments: [true, false])
    func columnRenamed(looksFirst: Bool) async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("s.sqlite")
        let (store, persistence) = try await AttractionStore.openDatabase(
            at: url, pollInterval: nil)
        let notices = Notices(store)
        try store.add(Attraction(name: "Louvre", notes: "Mona Lisa"))
        try await persistence.flush()

        try await OtherSQLiteProgram.run(
            OtherSQLiteProgram.execute, url, "ALTER TABLE elements RENAME COLUMN notes TO remarks")
        if looksFirst {
            persistence.lookForChanges()
            #expect(await eventually { !notices.messages.isEmpty })
            // Not read as emptied notes: the list is as it was.
            #expect(store.elements.map(\.notes) == ["Mona Lisa"])
        }
        try store.add(Attraction(name: "Orsay"))
        try await persistence.flush()
        try await persistence.close()

        #expect(notices.messages.count == 1, "\(notices.messages)")
        #expect(notices.messages.first?.contains("notes") == true)
        let recovered = folder.file("s.recovered.sqlite")
        #expect(persistence.url == recovered)
        #expect(try ListOnDisk.read(recovered).map(\.notes) == ["Mona Lisa", ""])
        #expect(try await OtherSQLiteProgram.run(OtherSQLiteProgram.names, url) == "Louvre")
    }

    @Test(
        "a meta table, or every table, another program drops or renames, or a schema version it clears, is told once, as a damaged file, and the list goes beside it",
        arguments: [
            ("DROP TABLE meta", "its table meta is missing"),
            ("PRAGMA user_version = 0", "its schema version (PRAGMA user_version) is 0"),
            ("ALTER TABLE meta RENAME TO meta2", "its table meta is missing"),
            (
                "DROP TABLE meta; DROP TABLE elements; PRAGMA user_version = 0",
                "its tables were removed"
            ),
        ])
    func tablesGone(sql: String, told: String) async throws {
        let (folder, url, store, persistence) = try await openWithLouvre()
        let notices = Notices(store)

        try await OtherSQLiteProgram.run(OtherSQLiteProgram.execute, url, sql)
        persistence.lookForChanges()
        #expect(await eventually { !notices.messages.isEmpty })
        try store.add(Attraction(name: "Orsay"))
        try await persistence.flush()
        try await persistence.close()

        #expect(notices.messages.count == 1, "\(notices.messages)")
        #expect(notices.messages.first?.contains(told) == true)
        #expect(persistence.url == folder.file("s.recovered.sqlite"))
        #expect(try ListOnDisk.read(persistence.url).map(\.name) == ["Louvre", "Orsay"])
        // Nothing more was written there.
        if told == "its tables were removed" {
            #expect(try await OtherSQLiteProgram.run(OtherSQLiteProgram.tables, url) == "")
        } else {
            #expect(try await OtherSQLiteProgram.run(OtherSQLiteProgram.names, url) == "Louvre")
        }
    }

    @Test(
        "a row another program inserts that breaks the model's rules is told once, though it leaves the list as it was"
    )
    func brokenRowToldOnce() async throws {
        let (folder, url, store, persistence) = try await openWithLouvre()
        let notices = Notices(store)

        try await OtherSQLiteProgram.run(
            OtherSQLiteProgram.execute, url,
            "INSERT INTO elements (id, rank, name, notes) VALUES ('not-an-id', 99, 'Bad', '')")
        persistence.lookForChanges()
        #expect(await eventually { !notices.messages.isEmpty })
        try await OtherSQLiteProgram.run(OtherSQLiteProgram.insert, url, "Cluny")
        persistence.lookForChanges()
        #expect(await eventually { store.elements.count == 2 })
        try await persistence.close()

        #expect(notices.messages.count == 1, "\(notices.messages)")
        #expect(notices.messages.first?.contains("not-an-id") == true)
        #expect(store.elements.map(\.name) == ["Louvre", "Cluny"])
        withExtendedLifetime(folder) {}
    }

    @Test(
        "a row another program inserts with an id stored as a blob is skipped and told, not shown as one no write could find"
    )
    func blobIdSkipped() async throws {
        let (folder, url, store, persistence) = try await openWithLouvre()
        let notices = Notices(store)

        try await OtherSQLiteProgram.run(
            OtherSQLiteProgram.execute, url,
            "INSERT INTO elements (id, rank, name, notes) VALUES (CAST('\(UUID())' AS BLOB), 99, 'Blob', '')"
        )
        persistence.lookForChanges()
        #expect(await eventually { !notices.messages.isEmpty })
        try await persistence.close()

        #expect(notices.messages.first?.contains("stored as blob") == true, "\(notices.messages)")
        #expect(store.elements.map(\.name) == ["Louvre"])
        withExtendedLifetime(folder) {}
    }

    @Test(
        "a database whose list cannot be written beside it (its folder moved away, a file put in its place) says so at the end, naming the store and why"
    )
    func recoveryImpossible() async throws {
        let (folder, url, store, persistence) = try await Self.openInAFolder()

        try await OtherSQLiteProgram.run(OtherSQLiteProgram.lose, url, "move-folder-leave-file")
        try store.add(Attraction(name: "Orsay"))
        await #expect {
            try await persistence.close()
        } throws: { error in
            let text = "\(error)"
            return text.contains("cannot save \(url.path)")
                && text.contains("could not be written beside it")
                && text.contains("\(folder.file("d").path) is a file, not a folder")
                && !text.contains(".building")
        }
    }

    @Test(
        "new attraction ids are random even where no file descriptor is left to open",
        .enabled(
            if: !isUnderAddressSanitizer,
            "AddressSanitizer's runtime needs descriptors of its own, and ends the child without them"
        ))
    func idsWithoutDescriptors() async throws {
        let output = try ChildOutput()
        let child = Process()
        child.executableURL = try executable(named: "other-process")
        child.arguments = ["--ids-without-descriptors"]
        child.standardOutput = output.handle
        try child.run()
        await exited(child)
        let text = try output.text()

        // Foundation's `UUID()` reads /dev/urandom on Linux, and gave all zeros here.
        let ids = text.split(separator: "\n").map(String.init)
        #expect(child.terminationStatus == 0)
        #expect(ids.count == 2 && ids[0] != ids[1], "\(ids)")
        #expect(!ids.contains("00000000-0000-4000-8000-000000000000"), "\(ids)")
        #expect(ids.allSatisfy { Attraction.ID($0) != nil }, "\(ids)")
    }
}
