import Foundation
import MVCListStore
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
    @Test(
        "a database another program unmakes is told once, the list here kept as it was, and an edit after it is shown saved only if it was written",
        arguments: [
            // Whether an edit can still be written: one that touches only the rows' table is.
            ("DROP TABLE meta", true), ("PRAGMA user_version = 0", false),
            ("ALTER TABLE meta RENAME TO meta2", true),
            ("DROP TABLE meta; DROP TABLE elements; PRAGMA user_version = 0", false),
            ("ALTER TABLE elements RENAME COLUMN notes TO remarks", false),
        ])
    func unmadeByAnother(sql: String, writes: Bool) async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("s.sqlite")
        let (store, persistence) = try await AttractionStore.openDatabase(
            at: url, pollInterval: nil)
        let notices = Notices(store)
        try store.add(Attraction(name: "Louvre", notes: "Mona Lisa"))
        try await persistence.flush()

        try await OtherSQLiteProgram.run(OtherSQLiteProgram.execute, url, sql)
        persistence.lookForChanges()
        #expect(await eventually { !notices.messages.isEmpty })
        persistence.lookForChanges()
        try store.add(Attraction(name: "Orsay"))

        // Not taken in as every row deleted, nor as notes emptied; told once, looks or not.
        #expect(store.elements.map(\.notes) == ["Mona Lisa", ""])
        #expect(notices.messages.count == 1, "\(notices.messages)")
        #expect(notices.messages.first?.contains("could not read other programs' changes") == true)
        if writes {
            try await persistence.flush()
            try await persistence.close()
            #expect(try ListOnDisk.read(url).map(\.name) == ["Louvre", "Orsay"])
        } else {
            #expect(
                notices.messages.first?.contains("no longer a database this program made") == true)
            await #expect(throws: PersistenceError.self) { try await persistence.flush() }
            #expect(store.saving.value != .saved)
            await #expect(throws: PersistenceError.self) { try await persistence.close() }
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
