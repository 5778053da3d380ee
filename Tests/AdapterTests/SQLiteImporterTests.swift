import Foundation
import MVCElements
import MVCListStore
import MVCSQLiteStore
import Testing

/// An importer's own element, as the tutorial writes one: a `UUID` id and a number field.
struct Book: SQLiteListElement, Codable {
    struct Problem: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    var id: UUID
    var title = ""
    var pages = 0
    var rating = 0.0
    var finished = false

    static var noun: String { "book" }
    static let fields: [ElementField<Book>] = [
        ElementField("title", \.title, parse: { .success($0) }),
        ElementField("pages", \.pages, parse: { parsed(Int($0)) }),
        ElementField("rating", \.rating, parse: { parsed(Double($0)) }),
        ElementField("finished", \.finished, parse: { parsed(Bool($0)) }),
    ]

    @Sendable
    private static func parsed<Value>(_ value: Value?) -> Result<Value, Problem> {
        value.map { .success($0) } ?? .failure(Problem(description: "not a value of the field"))
    }

    init(blankWithID id: UUID) { self.id = id }

    init(_ title: String, pages: Int, rating: Double = 0, finished: Bool = false) {
        (id, self.title, self.pages) = (UUID(), title, pages)
        (self.rating, self.finished) = (rating, finished)
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

    @Test("a text with a NUL character in it is kept whole, not cut at the NUL")
    func nulCharacterKept() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("nul.sqlite")
        let (store, persistence) = try await ListStore<Book>.openDatabase(
            at: url, pollInterval: nil)
        let title = "Dune\u{0}Messiah"
        try store.add(Book(title, pages: 331))
        try await persistence.close()

        #expect(try await SQLiteListFile<Book>.read(from: url).map(\.title) == [title])
    }

    @Test("rewording an element's nouns keeps its databases, when its database kind is kept")
    func rewordedNouns() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("books.sqlite")
        try await SQLiteListFile.write([Book("Dune", pages: 412)], to: url)

        let volumes = try await SQLiteListFile<Volume>.read(from: url)
        #expect(volumes.map(\.title) == ["Dune"])
    }

    @Test(
        "a number, a fraction and a truth value are stored typed: another program sorts and sums them"
    )
    func typedColumns() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("books.sqlite")
        let (store, persistence) = try await ListStore<Book>.openDatabase(
            at: url, pollInterval: nil)
        try store.add(Book("Dune", pages: 412, rating: 0.1, finished: true))
        try store.add(Book("Emma", pages: 474, rating: 4.5))
        try await persistence.flush()

        let raw = try RawSQLite(url)
        #expect(
            try raw.rows(
                "SELECT name, type FROM pragma_table_info('elements') WHERE name IN ('title', 'pages', 'rating', 'finished') ORDER BY cid"
            )
                == [
                    ["title", "TEXT"], ["pages", "INTEGER"], ["rating", "REAL"],
                    ["finished", "BOOLEAN"],
                ])
        #expect(
            try raw.rows(
                "SELECT typeof(pages), typeof(rating), typeof(finished) FROM elements LIMIT 1")
                == [["integer", "real", "integer"]])
        #expect(try raw.rows("SELECT sum(pages) FROM elements") == [["886"]])
        try await OtherSQLiteProgram.run(
            OtherSQLiteProgram.execute, url,
            "UPDATE elements SET finished = 1, pages = pages + 1 WHERE title = 'Emma'")
        persistence.lookForChanges()
        #expect(
            await eventually {
                store.elements.last?.finished == true && store.elements.last?.pages == 475
            })
        try await persistence.close()
        let reopened = try await SQLiteListFile<Book>.read(from: url)
        #expect(reopened == store.elements)
        #expect(reopened.first?.rating == 0.1)
    }

    @Test("a database whose number columns were made as text is retyped in place, every row kept")
    func textColumnsRetyped() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("books.sqlite")
        let dune = UUID()
        try RawSQLite(url).execute(
            """
            PRAGMA journal_mode = WAL;
            CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
            CREATE TABLE elements (id TEXT PRIMARY KEY NOT NULL, rank INTEGER NOT NULL,
                title TEXT, pages TEXT, rating TEXT, finished TEXT);
            CREATE INDEX elements_by_rank ON elements (rank);
            INSERT INTO meta VALUES ('kind', 'books');
            INSERT INTO elements VALUES ('\(dune.uuidString)', 0, 'Dune', '412', '4.5', 'true');
            PRAGMA user_version = 2;
            """)

        let (store, persistence) = try await ListStore<Book>.openDatabase(
            at: url, pollInterval: nil)
        #expect(store.elements.map(\.pages) == [412])
        #expect(store.elements.first?.finished == true)
        let raw = try RawSQLite(url)
        #expect(
            try raw.rows("SELECT typeof(pages), typeof(rating), finished FROM elements")
                == [["integer", "real", "1"]])
        // The triggers were made again with the table: another program's edit is seen.
        try await OtherSQLiteProgram.run(
            OtherSQLiteProgram.execute, url, "UPDATE elements SET pages = 413")
        persistence.lookForChanges()
        #expect(await eventually { store.elements.first?.pages == 413 })
        try await persistence.close()
    }

    @Test(
        "numbers read back exactly: a fraction SQLite would round in text, and one that is not finite"
    )
    func exactNumbers() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("books.sqlite")
        let (store, persistence) = try await ListStore<Book>.openDatabase(
            at: url, pollInterval: nil)
        let values = [1.7976931348623157e308, .leastNonzeroMagnitude * 1_000, 0.1, .infinity, .nan]
        for (index, rating) in values.enumerated() {
            try store.add(Book("Book \(index)", pages: index, rating: rating))
        }
        try await persistence.close()

        let ratings = try await SQLiteListFile<Book>.read(from: url).map(\.rating)
        #expect(ratings.dropLast() == values.dropLast())
        #expect(ratings.last?.isNaN == true)
    }

    @Test(
        "a table another program gave a column with a default expression still opens, typed or not")
    func otherProgramsColumnKept() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("books.sqlite")
        // A list made before typed columns, to which another program added a column whose
        // default is an expression: the table is not rebuilt, and keeps that column whole.
        try RawSQLite(url).execute(
            """
            PRAGMA journal_mode = WAL;
            CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
            CREATE TABLE elements (id TEXT PRIMARY KEY NOT NULL, rank INTEGER NOT NULL,
                title TEXT, pages TEXT, rating TEXT, finished TEXT,
                added_at TEXT NOT NULL DEFAULT (datetime('now')));
            INSERT INTO meta VALUES ('kind', 'books');
            INSERT INTO elements (id, rank, title, pages, rating, finished)
                VALUES ('\(UUID().uuidString)', 0, 'Dune', '412', '0', 'false');
            PRAGMA user_version = 2;
            """)

        let (store, persistence) = try await ListStore<Book>.openDatabase(
            at: url, pollInterval: nil)
        try store.add(Book("Emma", pages: 474))
        try await persistence.close()

        #expect(try await SQLiteListFile<Book>.read(from: url).map(\.pages) == [412, 474])
        #expect(try RawSQLite(url).rows("SELECT count(added_at) FROM elements") == [["2"]])
    }

    @Test("a date and an optional, described by their text, are kept in a database and read back")
    func anyValueFields() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("voyages.sqlite")
        let (store, persistence) = try await ListStore<Voyage>.openDatabase(
            at: url, pollInterval: nil)
        var lisbon = Voyage(blankWithID: UUID())
        (lisbon.name, lisbon.leaves) = ("Lisbon", Date(timeIntervalSince1970: 1_798_099_200))
        var porto = lisbon
        (porto.id, porto.name, porto.budget) = (UUID(), "Porto", 900)
        try store.add(lisbon)
        try store.add(porto)
        try await persistence.close()

        #expect(try await SQLiteListFile<Voyage>.read(from: url) == [lisbon, porto])
    }
}

/// An importer's element with a date and an optional, kept as the text their fields give.
struct Voyage: SQLiteListElement, Codable {
    var id: UUID
    var name = ""
    var leaves = Date(timeIntervalSince1970: 0)
    var budget: Int?

    static var noun: String { "voyage" }
    static let fields: [ElementField<Voyage>] = [
        ElementField("name", \.name),
        ElementField(
            "leaves", \.leaves, text: { $0.formatted(.iso8601) },
            parse: { text in
                (try? Date.ISO8601FormatStyle().parse(text)).map { .success($0) }
                    ?? .failure(FieldProblem("not a date"))
            }),
        ElementField(
            "budget", \.budget, text: { $0.map(String.init) ?? "" },
            parse: { text in
                text.isEmpty
                    ? .success(nil) : Int(text).map { .success($0) } ?? .failure(FieldProblem("?"))
            }),
    ]

    var title: String { name }

    init(blankWithID id: UUID) { self.id = id }
    init(from decoder: any Decoder) throws { self = try Self.decodeFields(from: decoder) }
    func encode(to encoder: any Encoder) throws { try encodeFields(to: encoder) }
}
