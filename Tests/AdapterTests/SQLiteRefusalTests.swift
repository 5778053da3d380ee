import Foundation
import MVCListStore
import MVCModel
import MVCSQLiteStore
import MVCStore
import Testing

/// Rows and writes the SQLite store refuses, each saying why: rows another program stored in a
/// form no write here could find or place, and writes another program's rules refuse.
@MainActor
@Suite("What the SQLite store refuses, and says")
struct SQLiteRefusalTests {
    @Test("a row whose id is not written as this code writes ids is refused, naming it")
    func idInAnotherSpelling() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.sqlite")
        let louvre = Attraction(name: "Louvre")
        try await SQLiteListFile.write([louvre], to: url)
        try RawSQLite(url).execute(
            "UPDATE elements SET id = lower(id)")
        let bytes = try Data(contentsOf: url)

        await #expect {
            _ = try await AttractionStore.openDatabase(at: url)
        } throws: { error in
            guard case .brokenRule(_, let reason) = error as? PersistenceError else { return false }
            return reason.contains(louvre.id.description.lowercased())
        }
        #expect(try Data(contentsOf: url) == bytes)
    }

    @Test(
        "a row whose id is not stored as text, or whose rank is not an integer, is refused, saying which",
        arguments: [
            ("UPDATE elements SET id = CAST(id AS BLOB)", "its id is stored as blob, not as text"),
            ("UPDATE elements SET rank = 'abc'", "its rank is 'abc', not an integer"),
            ("UPDATE elements SET rank = 1e300", "not an integer"),
            ("UPDATE elements SET rank = 0.5", "its rank is 0.5, not an integer"),
        ])
    func mistypedRow(change: String, reason expected: String) async throws {
        // No write here could find such a row again (`WHERE id = ?` never matches a blob), nor
        // place a row beside it: a delete or a move of it would be lost with no word.
        let folder = try TemporaryFolder()
        let url = folder.file("a.sqlite")
        let louvre = Attraction(name: "Louvre")
        try await SQLiteListFile.write([Attraction(name: "Orsay"), louvre], to: url)
        try RawSQLite(url).execute("\(change) WHERE name = 'Louvre'")
        let bytes = try Data(contentsOf: url)

        await #expect {
            _ = try await AttractionStore.openDatabase(at: url)
        } throws: { error in
            guard case .brokenRule(_, let reason) = error as? PersistenceError else { return false }
            return reason.contains(expected) && reason.contains(louvre.id.description)
        }
        #expect(try Data(contentsOf: url) == bytes)
    }

    @Test(
        "in a list read in several batches, the first broken row is named by its place in the whole list, and the rest open in order"
    )
    func brokenRowPastTheFirstBatch() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.sqlite")
        let rows = (1...45_001).map { Attraction(name: "row \($0)") }
        try await SQLiteListFile.write(rows, to: url)
        // Rows 43,211 and 20,001 (from 1), each in a batch after the first, are broken by hand.
        try RawSQLite(url).execute(
            "UPDATE elements SET id = CAST(id AS BLOB) WHERE name IN ('row 43211', 'row 20001')")

        await #expect {
            _ = try await AttractionStore.openDatabase(at: url)
        } throws: { error in
            guard case .brokenRule(_, let reason) = error as? PersistenceError else { return false }
            return reason.hasPrefix("row 20001:") && reason.contains(rows[20_000].id.description)
        }
        try RawSQLite(url).execute("UPDATE elements SET id = CAST(id AS TEXT)")
        let (store, persistence) = try await AttractionStore.openDatabase(
            at: url, pollInterval: nil)
        #expect(store.count == rows.count)
        #expect(store.elements.map(\.id) == rows.map(\.id))
        try await persistence.close()
    }

    @Test(
        "closing after writes that fail for another reason than a lock says why, and how many edits were not saved"
    )
    func closingAfterWritesFail() async throws {
        let (folder, url, store, persistence) = try await openWithLouvre()
        try await OtherSQLiteProgram.run(
            OtherSQLiteProgram.execute, url,
            "CREATE TRIGGER closed BEFORE INSERT ON elements BEGIN SELECT RAISE(ABORT, 'inserts are closed'); END"
        )
        try store.add(Attraction(name: "Orsay"))
        try store.add(Attraction(name: "Cluny"))

        await #expect {
            try await persistence.close(patience: .milliseconds(300))
        } throws: { error in
            "\(error)"
                == "cannot save \(persistence.url.path): inserts are closed; 2 edits were not saved"
        }
        withExtendedLifetime(folder) {}
    }
}
