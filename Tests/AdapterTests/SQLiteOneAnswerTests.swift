import Foundation
import MVCElements
import MVCListStore
import MVCModel
import MVCObservation
import MVCSQLiteStore
import MVCStore
import Testing

/// An element with a rule across two fields, as an importer's might have: `low` ≤ `high`.
struct Span: SQLiteListElement, Codable {
    struct Problem: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    var id: String
    var low = 0
    var high = 0

    static var noun: String { "span" }
    static let fields: [ElementField<Span>] = [
        ElementField("low", \.low, parse: number),
        ElementField("high", \.high, parse: number),
    ]

    init(blankWithID id: String) { self.id = id }

    init(_ id: String, low: Int, high: Int) {
        (self.id, self.low, self.high) = (id, low, high)
    }

    var title: String { id }
    var problems: [Problem] {
        low <= high ? [] : [Problem(description: "low \(low) > high \(high)")]
    }

    @Sendable
    private static func number(_ text: String) -> Result<Int, Problem> {
        Int(text).map { .success($0) } ?? .failure(Problem(description: "“\(text)” is no number"))
    }
}

/// The database decides each conflict once, by the rule every adapter asks, and a look reads
/// what changed: each case with a real second process (Python's `sqlite3` module, or the
/// `other-process` executable), and each failed before the change counter.
@MainActor
@Suite("The SQLite store decides each conflict once and reads only what changed")
struct SQLiteOneAnswerTests {
    @Test("two edits whose merge would break a rule are not both written: the stored row keeps it")
    func mergeKeepsTheRules() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("spans.sqlite")
        let (store, persistence) = try await ListStore<Span>.openDatabase(
            at: url, pollInterval: nil)
        var notices: [String] = []
        // Updates and notices in the order they arrive: a screen takes a notice off at the next
        // update, so the update a conflict brings must come before the notice that tells of it.
        var events: [String] = []
        let token = store.notice.observe(options: .new) { change in
            if let notice = change.newValue ?? nil {
                notices.append(notice.message)
                events.append("notice")
            }
        }
        let updates = store.changes.subscribeToAll { _ in events.append("update") }
        try store.add(Span("r", low: 1, high: 5))
        try await persistence.flush()

        // Another program raises low to 4; this one, before it looks, lowers high to 2.
        try await OtherSQLiteProgram.run(
            OtherSQLiteProgram.execute, url, "UPDATE elements SET low = '4' WHERE id = 'r'")
        try store.replace("r", with: Span("r", low: 1, high: 2))
        try await persistence.flush()
        #expect(await eventually { store.elements == [Span("r", low: 4, high: 5)] })
        try await persistence.close()

        #expect(notices.contains { $0.contains("break a rule (low 4 > high 2)") })
        #expect(!notices.contains { $0.contains("deleted") })
        // Added, edited here, then the stored row taken in, then told.
        #expect(events == ["update", "update", "update", "notice"])
        let reopened = try await SQLiteListFile<Span>.read(from: url)
        #expect(reopened == [Span("r", low: 4, high: 5)])
        withExtendedLifetime((token, updates)) {}
    }

    @Test("a move made while a look is under way is what the file holds and the screen shows")
    func moveDuringLook() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.sqlite")
        let (store, persistence) = try await openFollowingOnlyWhenAsked(url)
        for name in ["A", "B", "C", "D"] { try store.add(Attraction(name: name)) }
        try await persistence.flush()
        let there = try await OtherStoreProcess(url, watch: nil)
        try await there.run("move 3 0")
        try await there.run("flush")

        // The look reads the database off the main actor; the move comes first here.
        persistence.lookForChanges()
        try store.move(from: 0, to: 2)
        try await persistence.flush()
        persistence.lookForChanges()

        #expect(await eventually { store.elements.first?.name == "D" })
        let onDisk = try ListOnDisk.read(url).map(\.name)
        #expect(store.elements.map(\.name) == onDisk)
        #expect(onDisk == ["D", "B", "C", "A"])
        try await persistence.close()
        try await there.close()
    }

    @Test("an edit made at the sqlite3 prompt is seen: the triggers count it and keep tombstones")
    func editsThroughSQLAreSeen() async throws {
        let (folder, url, store, persistence) = try await openWithLouvre()
        try store.add(Attraction(name: "Orsay"))
        try store.add(Attraction(name: "Eiffel Tower"))
        try await persistence.flush()
        let louvre = try #require(store.elements.first).id

        try await OtherSQLiteProgram.run(
            OtherSQLiteProgram.execute, url,
            "UPDATE elements SET notes = 'by hand' WHERE id = '\(louvre)'; DELETE FROM elements WHERE name = 'Orsay'; UPDATE elements SET rank = -99999999999 WHERE name = 'Eiffel Tower'"
        )
        persistence.lookForChanges()

        #expect(
            await eventually {
                store.elements.map(\.name) == ["Eiffel Tower", "Louvre"]
                    && store.elements.last?.notes == "by hand"
            })
        #expect(
            try RawSQLite(url).rows("SELECT count(*) FROM tombstones") == [["1"]],
            "one tombstone, for Orsay")
        try await persistence.close()
        withExtendedLifetime(folder) {}
    }

    @Test("a process that fell behind the tombstones kept reads the whole list once, deletions too")
    func fallenBehindTombstones() async throws {
        let (folder, url, store, persistence) = try await openWithLouvre()
        try store.add(Attraction(name: "Orsay"))
        try await persistence.flush()

        // Another program deletes Orsay, and its tombstone is pruned at once.
        try await OtherSQLiteProgram.run(
            OtherSQLiteProgram.execute, url,
            "DELETE FROM elements WHERE name = 'Orsay'; UPDATE change_counter SET pruned = last; DELETE FROM tombstones"
        )
        persistence.lookForChanges()

        #expect(await eventually { store.elements.map(\.name) == ["Louvre"] })
        try await persistence.close()
        withExtendedLifetime(folder) {}
    }

    @Test(
        "a list emptied and filled again by another program, again and again, never loses a row here"
    )
    func tablesSwappedUnderALook() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("s.sqlite")
        let (store, persistence) = try await AttractionStore.openDatabase(
            at: url, pollInterval: .milliseconds(1))
        for name in ["Louvre", "Orsay", "Eiffel Tower"] { try store.add(Attraction(name: name)) }
        try await persistence.flush()
        var notices: [String] = []
        let token = store.notice.observe(options: .new) { change in
            if let notice = change.newValue ?? nil { notices.append(notice.message) }
        }
        let before = store.elements

        // Each round swaps in an empty table of the same shape, then swaps the rows back.
        let columns =
            "id TEXT PRIMARY KEY NOT NULL, rank INTEGER NOT NULL, name, notes, row_change INTEGER NOT NULL DEFAULT 0"
        try await OtherSQLiteProgram.run(
            """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1], isolation_level=None)
            for _ in range(150):
                db.executescript("BEGIN IMMEDIATE; ALTER TABLE elements RENAME TO hidden; CREATE TABLE elements (\(columns)); COMMIT;")
                db.executescript("BEGIN IMMEDIATE; DROP TABLE elements; ALTER TABLE hidden RENAME TO elements; COMMIT;")
            """, url)
        persistence.lookForChanges()
        try await persistence.flush()

        #expect(store.elements == before)
        #expect(!notices.contains { $0.contains("deleted") }, "\(notices)")
        try await persistence.close()
        withExtendedLifetime((folder, token)) {}
    }

    @Test(
        "a database schema version 2 wrote opens, migrates in place with nothing lost, and is followed"
    )
    func versionTwoMigrates() async throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appending(path: "Fixtures/attractions-v2.sqlite")
        let folder = try TemporaryFolder()
        let url = folder.file("attractions.sqlite")
        try FileManager.default.copyItem(at: fixture, to: url)

        let (store, persistence) = try await openFollowingOnlyWhenAsked(url)
        #expect(store.elements.map(\.name) == ["Eiffel Tower", "Louvre", "Musée d’Orsay"])
        #expect(try RawSQLite(url).rows("PRAGMA user_version") == [["3"]])
        try await OtherSQLiteProgram.run(
            OtherSQLiteProgram.execute, url,
            "UPDATE elements SET notes = 'Mona Lisa' WHERE name = 'Louvre'")
        persistence.lookForChanges()
        #expect(await eventually { store.elements[1].notes == "Mona Lisa" })
        try await persistence.close()
    }
}
