import Foundation
import MVCModel
import MVCObservation
import MVCSQLiteStore
import MVCStore
import Testing

/// An edit written after another program changed the same row, before this process looked.
///
/// The row deleted, the same field changed, the file marked with a newer schema version: each is
/// a real second process (Python's `sqlite3` module), and each rule is the JSON document's.
@MainActor
@Suite("The SQLite store's edit of a row another program changed first")
struct SQLiteEditedMeanwhileTests {
    /// The store's notices, in order.
    private static func recordNotices(_ store: AttractionStore) -> (
        messages: () -> [String], token: ObservationToken
    ) {
        final class Messages { var all: [String] = [] }
        let messages = Messages()
        let token = store.notice.observe(options: .new) { change in
            if let notice = change.newValue ?? nil { messages.all.append(notice.message) }
        }
        return ({ messages.all }, token)
    }

    @Test(
        "an edit of a row another program deleted meanwhile writes the row again, whole, and says so"
    )
    func editOfDeletedRowKept() async throws {
        let (folder, url, store, persistence) = try await openWithLouvre()
        defer { _ = folder }
        let (messages, token) = Self.recordNotices(store)
        try store.add(Attraction(name: "Orsay"))
        try await persistence.flush()
        let louvre = try #require(store.elements.first)

        try OtherSQLiteProgram.run(
            OtherSQLiteProgram.execute, url, "DELETE FROM elements WHERE id = '\(louvre.id)'")
        try store.replace(louvre.id, with: Attraction(id: louvre.id, name: "Louvre", notes: "kept"))
        try await persistence.flush()
        // Every later edit of it is written too.
        try store.replace(
            louvre.id, with: Attraction(id: louvre.id, name: "Le Louvre", notes: "kept"))
        try await persistence.flush()

        let onDisk = try ListOnDisk.read(url)
        #expect(onDisk.map(\.name) == ["Le Louvre", "Orsay"])
        #expect(onDisk.first?.notes == "kept")
        #expect(
            messages() == ["“Louvre” was deleted in another process but edited here; it was kept"])
        try await persistence.close()
        _ = token
    }

    @Test(
        "a delete of a row another program edited meanwhile keeps the row, says so, and the next look shows it again"
    )
    func deleteOfEditedRowKept() async throws {
        let (folder, url, store, persistence) = try await openWithLouvre()
        defer { _ = folder }
        let (messages, token) = Self.recordNotices(store)
        let louvre = try #require(store.elements.first)

        try OtherSQLiteProgram.run(
            OtherSQLiteProgram.execute, url,
            "UPDATE elements SET notes = 'theirs' WHERE id = '\(louvre.id)'")
        try store.delete(at: 0)
        try await persistence.flush()

        #expect(try ListOnDisk.read(url).map(\.notes) == ["theirs"])
        #expect(
            messages() == ["“Louvre” was deleted here but edited in another process; it was kept"])
        persistence.lookForChanges()
        #expect(await eventually { store.elements.map(\.notes) == ["theirs"] })
        try await persistence.close()
        _ = token
    }

    @Test("an edit of two fields that another program both changed meanwhile is told in one notice")
    func twoConflictsOneNotice() async throws {
        let (folder, url, store, persistence) = try await openWithLouvre()
        defer { _ = folder }
        let (messages, token) = Self.recordNotices(store)
        let louvre = try #require(store.elements.first)

        try OtherSQLiteProgram.run(
            OtherSQLiteProgram.execute, url,
            "UPDATE elements SET name = 'Their Louvre', notes = 'theirs' WHERE id = '\(louvre.id)'")
        try store.replace(
            louvre.id, with: Attraction(id: louvre.id, name: "Our Louvre", notes: "ours"))
        try await persistence.flush()

        #expect(try ListOnDisk.read(url).map(\.name) == ["Their Louvre"])
        #expect(messages().count == 1, "\(messages())")
        #expect(messages().first?.contains("its name changed here to “Our Louvre”") == true)
        #expect(messages().first?.contains("its notes changed here to “ours”") == true)
        try await persistence.close()
        _ = token
    }

    @Test(
        "an edit of a field another program changed meanwhile keeps the other program's version, and says so"
    )
    func sameFieldKeepsTheirs() async throws {
        let (folder, url, store, persistence) = try await openWithLouvre()
        defer { _ = folder }
        let (messages, token) = Self.recordNotices(store)
        let louvre = try #require(store.elements.first)

        try OtherSQLiteProgram.run(
            OtherSQLiteProgram.execute, url,
            "UPDATE elements SET notes = 'theirs' WHERE id = '\(louvre.id)'")
        try store.replace(
            louvre.id, with: Attraction(id: louvre.id, name: "Le Louvre", notes: "ours"))
        try await persistence.flush()

        // The other field, which the other program left alone, is written.
        let onDisk = try ListOnDisk.read(url)
        #expect(onDisk.map(\.name) == ["Le Louvre"])
        #expect(onDisk.map(\.notes) == ["theirs"])
        #expect(messages().count == 1, "\(messages())")
        #expect(messages().first?.contains("“ours”") == true)
        #expect(messages().first?.contains("the other process's was kept") == true)
        // The next look brings the other program's version in.
        persistence.lookForChanges()
        #expect(await eventually { store.elements.map(\.notes) == ["theirs"] })
        #expect(store.elements.map(\.name) == ["Le Louvre"])
        try await persistence.close()
        _ = token
    }

    @Test(
        "a database another program marks with a newer schema version while open is written no more; the list goes beside it"
    )
    func newerVersionWhileOpen() async throws {
        let (folder, url, store, persistence) = try await openWithLouvre()
        let (messages, token) = Self.recordNotices(store)

        try OtherSQLiteProgram.run(OtherSQLiteProgram.execute, url, "PRAGMA user_version = 3")
        try store.add(Attraction(name: "Orsay"))
        try await persistence.flush()
        try await persistence.close()

        #expect(try ListOnDisk.read(url).map(\.name) == ["Louvre"])
        let recovered = folder.file("s.recovered.sqlite")
        #expect(try ListOnDisk.read(recovered).map(\.name) == ["Louvre", "Orsay"])
        #expect(messages().count == 1, "\(messages())")
        #expect(messages().first?.contains("format version 3") == true)
        _ = token
    }
}
