import Foundation
import MVCModel
import MVCSQLiteStore
import MVCStore
import Testing

/// An importer's own element, as the tutorial writes one: a `UUID` id and a number field.
struct Book: SQLiteListElement, Codable {
    struct Problem: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    var id: UUID
    var title = ""
    var pages = 0

    static var noun: String { "book" }
    static let fields: [ElementField<Book>] = [
        ElementField("title", \.title, parse: { .success($0) }),
        ElementField(
            "pages", \.pages,
            parse: {
                Int($0).map { .success($0) } ?? .failure(Problem(description: "not a number"))
            }),
    ]

    init(blankWithID id: UUID) { self.id = id }

    init(_ title: String, pages: Int) {
        (id, self.title, self.pages) = (UUID(), title, pages)
    }

    var problems: [Problem] { title.isEmpty ? [Problem(description: "no title")] : [] }
}

/// `Book`, its nouns reworded ("volume") but its database kind kept.
struct Volume: SQLiteListElement, Codable {
    var id: UUID
    var title = ""
    var pages = 0

    static var noun: String { "volume" }
    static var databaseKind: String { "books" }
    static let fields: [ElementField<Volume>] = [
        ElementField("title", \.title, parse: { .success($0) }),
        ElementField(
            "pages", \.pages,
            parse: { Int($0).map { .success($0) } ?? .failure(Book.Problem(description: "?")) }),
    ]

    init(blankWithID id: UUID) { self.id = id }
    var problems: [Book.Problem] { [] }
}

@MainActor
@Suite("An importer's own element in an SQLite database")
struct SQLiteImporterTests {
    @Test("an element whose id is a UUID is kept, reopened and followed across processes")
    func uuidIDs() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("books.sqlite")
        let (store, persistence) = try await ListStore<Book>.openDatabase(
            at: url, pollInterval: nil)
        let dune = Book("Dune", pages: 412)
        try store.add(dune)
        try store.add(Book("Emma", pages: 474))
        try await persistence.flush()

        #expect(
            try RawSQLite(url).rows("SELECT id FROM elements ORDER BY rank").first
                == [dune.id.uuidString])
        try await OtherSQLiteProgram.run(
            OtherSQLiteProgram.execute, url,
            "UPDATE elements SET pages = '413' WHERE id = '\(dune.id.uuidString)'")
        persistence.lookForChanges()
        #expect(await eventually { store.elements.first?.pages == 413 })
        try await persistence.close()

        let reopened = try await SQLiteListFile<Book>.read(from: url)
        #expect(reopened.map(\.title) == ["Dune", "Emma"])
        #expect(reopened.first?.id == dune.id)
    }

    @Test("rewording an element's nouns keeps its databases, when its database kind is kept")
    func rewordedNouns() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("books.sqlite")
        try await SQLiteListFile.write([Book("Dune", pages: 412)], to: url)

        let volumes = try await SQLiteListFile<Volume>.read(from: url)
        #expect(volumes.map(\.title) == ["Dune"])
    }
}
