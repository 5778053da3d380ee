import CSQLite
import Foundation
import MVCDocumentStore
import MVCElements
import MVCListStore
import MVCModel
import MVCObservation
import MVCSQLiteStore
import MVCStore
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Tables another program changed by hand, in plain SQL: rows written outside the store, and a
/// primary key taken away.
@MainActor
@Suite("The SQLite store, with its table changed by hand")
struct SQLiteHandEditedTests {
    @Test(
        "a table rebuilt by hand without its primary key, holding an id twice, is refused naming both rows; without the second it opens and finds each id"
    )
    func idTwiceWithoutPrimaryKey() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.sqlite")
        let louvre = Attraction(name: "Louvre")
        let orsay = Attraction(name: "Orsay")
        try await SQLiteListFile.write([louvre, orsay], to: url)
        // The list is made with distinct ids only when the primary key keeps them so.
        try RawSQLite(url).execute(
            """
            ALTER TABLE elements RENAME TO old;
            CREATE TABLE elements (id TEXT NOT NULL, rank INTEGER NOT NULL,
                row_change INTEGER NOT NULL DEFAULT 0, name TEXT, notes TEXT);
            INSERT INTO elements (id, rank, row_change, name, notes)
                SELECT id, rank, row_change, name, notes FROM old;
            DROP TABLE old;
            INSERT INTO elements (id, rank, name, notes)
                SELECT id, (SELECT max(rank) + 1 FROM elements), 'Louvre again', '' FROM elements
                WHERE name = 'Louvre';
            """)

        // Shown with one row an id, an edit of it would change both rows, unseen.
        await #expect {
            try await AttractionStore.openDatabase(at: url)
        } throws: { error in
            "\(error)".contains("row 3: attraction \(louvre.id): its id is row 1's too")
        }
        try RawSQLite(url).execute("DELETE FROM elements WHERE name = 'Louvre again'")

        let (store, persistence) = try await AttractionStore.openDatabase(at: url)
        #expect(store.elements.map(\.name) == ["Louvre", "Orsay"])
        #expect(store.element(withID: louvre.id)?.name == "Louvre")
        #expect(store.position(of: orsay.id) == 1)
        try store.replace(orsay.id, with: Attraction(id: orsay.id, name: "Musée d'Orsay"))
        try await persistence.close()
        #expect(
            try await SQLiteListFile<Attraction>.read(from: url).map(\.name).contains(
                "Musée d'Orsay"))
    }

    @Test("rows another program writes by hand, in plain SQL, are taken in as ordinary updates")
    func handWrittenRows() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.sqlite")
        let louvre = Attraction(name: "Louvre")
        let orsay = Attraction(name: "Orsay")
        try await SQLiteListFile.write([louvre, orsay], to: url)
        let reader = try await openFollowingOnlyWhenAsked(url)
        let mirror = UpdateMirror(reader.store)
        let cluny = Attraction(name: "Cluny")

        // Another program, in one transaction: a row added at the front, a field changed, a row
        // deleted; none of it through this code.
        try await OtherSQLiteProgram.run(
            OtherSQLiteProgram.execute, url,
            """
            BEGIN;
            INSERT INTO elements (id, rank, name) VALUES
                ('\(cluny.id)', (SELECT min(rank) - 1 FROM elements), 'Cluny');
            UPDATE elements SET notes = 'Vermeer' WHERE id = '\(louvre.id)';
            DELETE FROM elements WHERE id = '\(orsay.id)';
            COMMIT;
            """)
        reader.persistence.lookForChanges()

        #expect(await eventually { reader.store.elements.map(\.name) == ["Cluny", "Louvre"] })
        #expect(reader.store.elements.last?.notes == "Vermeer")
        #expect(mirror.elements == reader.store.elements)
    }

    @Test(
        "a field whose bytes another program wrote are not UTF-8 is refused at opening, and skipped and told when a running store looks; never saved altered"
    )
    func textThatIsNotUTF8() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.sqlite")
        let (louvre, orsay) = (Attraction(name: "Louvre"), Attraction(name: "Orsay"))
        try await SQLiteListFile.write([louvre, orsay], to: url)
        let reader = try await openFollowingOnlyWhenAsked(url)
        // "Or", a lone byte C3 and FF, then "sa": read as U+FFFD, a later edit of its notes
        // would have written the name back with the two bytes replaced.
        try RawSQLite(url).execute(
            "UPDATE elements SET name = CAST(x'4F72C3FF7361' AS TEXT) WHERE id = '\(orsay.id)'")
        reader.persistence.lookForChanges()
        #expect(
            await eventually { reader.store.notice.value?.message.contains("not UTF-8") == true })
        #expect(reader.store.elements.map(\.name) == ["Louvre", "Orsay"])
        try await reader.persistence.close()

        await #expect {
            try await AttractionStore.openDatabase(at: url)
        } throws: { error in
            "\(error)".contains(
                "row 2: attraction \(orsay.id), field “name”: its text is not UTF-8")
        }
        let stored = try RawSQLite(url).rows(
            "SELECT hex(name) FROM elements WHERE id = '\(orsay.id)'")
        #expect(stored == [["4F72C3FF7361"]])
    }
}
