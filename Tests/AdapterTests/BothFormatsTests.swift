import AttractionsStorage
import Foundation
import MVCDocumentStore
import MVCListStore
import MVCModel
import MVCObservation
import MVCPostgresStore
import MVCSQLiteStore
import MVCStore
import Testing

/// The two ways a list store keeps its list on disk; each test of ``BothFormatsTests`` runs
/// against both, through the same store API.
enum ListFormat: CaseIterable, Sendable, CustomTestStringConvertible {
    case document
    case database
    /// A PostgreSQL table: only where a server is configured (see `PostgresTestServer`).
    case server

    /// The formats on this machine's disk.
    static let allCases: [ListFormat] = [.document, .database]
    /// Every adapter's format that can be run here: the server's too, where one is configured.
    static var shared: [ListFormat] { allCases + (PostgresTestServer.url == nil ? [] : [.server]) }

    var testDescription: String {
        switch self {
        case .document: "JSON document"
        case .database: "SQLite database"
        case .server: "PostgreSQL table"
        }
    }

    /// A new list's file in `folder`; for the server, a new table's URL (named for the folder,
    /// which is new too).
    func file(in folder: TemporaryFolder) -> URL {
        switch self {
        case .document: folder.file("attractions.json")
        case .database: folder.file("attractions.sqlite")
        case .server: PostgresTestServer.newTable()
        }
    }

    /// Opens the list at `url` as a program would: following other processes' saves from the
    /// operating system's notices (polling `every` 100 ms where there are none).
    @MainActor
    func open(_ url: URL, every interval: Duration = .milliseconds(100)) async throws -> OpenList {
        switch self {
        case .document:
            let (store, saver) = try await AttractionStore.open(at: url, delay: .milliseconds(20))
            saver.watchForSaves(fallbackInterval: interval)
            return OpenList(store: store, flush: { try await saver.flush() }, close: {})
        case .database:
            let (store, persistence) = try await AttractionStore.openDatabase(
                at: url, pollInterval: interval)
            return OpenList(
                store: store, flush: { try await persistence.flush() },
                close: { try await persistence.close() })
        case .server:
            let (store, persistence) = try await AttractionStore.openTable(
                at: PostgresLocation(url.absoluteString))
            return OpenList(
                store: store, flush: { try await persistence.flush() },
                close: { try await persistence.close() })
        }
    }
}

/// A store open on a file, with what writes its edits.
@MainActor
final class OpenList {
    let store: AttractionStore
    private let writing: @MainActor () async throws -> Void
    private let closing: @MainActor () async throws -> Void

    init(
        store: AttractionStore, flush: @escaping @MainActor () async throws -> Void,
        close: @escaping @MainActor () async throws -> Void
    ) {
        self.store = store
        self.writing = flush
        self.closing = close
    }

    /// Waits until every edit so far is on disk.
    func flush() async throws { try await writing() }

    /// Writes every edit and lets go of the file.
    func close() async throws {
        try await writing()
        try await closing()
    }
}

/// Rebuilds a store's list from its published updates alone.
@MainActor
final class UpdateMirror {
    private(set) var elements: [Attraction]
    private var token: ObservationToken?

    init(_ store: AttractionStore) {
        elements = store.elements
        token = store.changes.subscribeToAll { [weak self] update in
            guard let self else { return }
            switch update.change {
            case .inserted(let attraction, let at): elements.insert(attraction, at: at)
            case .removed(_, let at): elements.remove(at: at)
            case .moved(_, let from, let to): elements.insert(elements.remove(at: from), at: to)
            case .replaced(_, let attraction, let at): elements[at] = attraction
            }
        }
    }
}

/// Waits, for at most `seconds`, until `condition` holds; whether it did.
@MainActor
func eventually(seconds: Int = 30, _ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while await !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}

@MainActor
@Suite("Both formats keep a list, shared by processes, the same way")
struct BothFormatsTests {
    @Test(
        "every edit is kept, and a reopened store has the list in order",
        arguments: ListFormat.allCases)
    func reopen(format: ListFormat) async throws {
        let folder = try TemporaryFolder()
        let list = try await format.open(format.file(in: folder))
        let orsay = Attraction(name: "Orsay")
        try list.store.add(Attraction(name: "Louvre"))
        try list.store.add(orsay)
        try list.store.add(Attraction(name: "Eiffel"), at: 0)
        try list.store.move(from: 2, to: 0)
        try list.store.replace(
            orsay.id, with: Attraction(id: orsay.id, name: "Orsay", notes: "Monet"))
        try list.store.delete(at: 1)
        try list.store.undo()
        try list.store.add(Attraction(name: "Rodin"), at: 1)
        try await list.close()

        let reopened = try await format.open(format.file(in: folder))
        #expect(reopened.store.elements.map(\.name) == ["Orsay", "Rodin", "Eiffel", "Louvre"])
        #expect(reopened.store.elements == list.store.elements)
    }

    @Test(
        "another process's adds, edits, moves and deletes reach this store as ordinary updates",
        arguments: ListFormat.allCases)
    func otherProcessesEdits(format: ListFormat) async throws {
        let folder = try TemporaryFolder()
        let reader = try await format.open(format.file(in: folder))
        let writer = try await OtherStoreProcess(format.file(in: folder))
        let mirror = UpdateMirror(reader.store)

        for (position, name) in ["Louvre", "Orsay", "Eiffel", "Rodin"].enumerated() {
            try await writer.run("add \(position) \(name)")
        }
        try await writer.run("flush")
        var written = try await writer.elements
        #expect(await eventually { reader.store.elements == written })

        // Rodin to the front, Orsay's notes, Louvre deleted, Cluny added before Eiffel.
        for command in ["move 3 0", "notes 2 Monet", "delete 1", "add 2 Cluny", "flush"] {
            try await writer.run(command)
        }
        written = try await writer.elements

        #expect(await eventually { reader.store.elements == written })
        #expect(reader.store.elements.map(\.name) == ["Rodin", "Orsay", "Cluny", "Eiffel"])
        #expect(reader.store.elements[1].notes == "Monet")
        #expect(mirror.elements == reader.store.elements, "the published updates do not add up")
        #expect(reader.store.undoLabel == nil, "another process's edits are not this one's to undo")
        try await writer.close()
    }

    @Test(
        "two processes editing different fields of one attraction keep both edits",
        arguments: ListFormat.allCases)
    func fieldsFromBoth(format: ListFormat) async throws {
        let folder = try TemporaryFolder()
        let first = try await format.open(format.file(in: folder))
        let second = try await OtherStoreProcess(format.file(in: folder))
        let louvre = Attraction(name: "Louvre")
        try first.store.add(louvre)
        try await first.flush()
        #expect(await eventually { (try? await second.elements) == [louvre] })

        try first.store.replace(louvre.id, with: Attraction(id: louvre.id, name: "Musée du Louvre"))
        try await second.run("notes 0 Closed on Tuesdays")
        try await first.flush()
        try await second.run("flush")

        let both = Attraction(id: louvre.id, name: "Musée du Louvre", notes: "Closed on Tuesdays")
        #expect(
            await eventually {
                let theirs = try? await second.elements
                return first.store.elements == [both] && theirs == [both]
            })
        try await second.close()
    }

    @Test(
        "undo finds its attraction by id after another process's edits",
        arguments: ListFormat.allCases)
    func undoAfterOtherProcessesEdits(format: ListFormat) async throws {
        let folder = try TemporaryFolder()
        let first = try await format.open(format.file(in: folder))
        let second = try await OtherStoreProcess(format.file(in: folder))
        let louvre = Attraction(name: "Louvre")
        try first.store.add(louvre)
        try await first.flush()
        #expect(await eventually { (try? await second.elements) == [louvre] })

        try await second.run("add 0 Orsay")
        try await second.run("flush")
        #expect(await eventually { first.store.elements.map(\.name) == ["Orsay", "Louvre"] })

        #expect(first.store.undoLabel == "Add “Louvre”")
        try first.store.undo()
        try await first.flush()
        #expect(first.store.elements.map(\.name) == ["Orsay"])
        let kept = first.store.elements
        #expect(await eventually { (try? await second.elements) == kept })
        try await second.close()
    }

    @Test(
        "a file that is not a list is refused, named, and left byte for byte",
        arguments: ListFormat.allCases)
    func notAList(format: ListFormat) async throws {
        let folder = try TemporaryFolder()
        let url = format.file(in: folder)
        let bytes = Data("a shopping list: bread, milk\n".utf8)
        try bytes.write(to: url)

        await #expect {
            _ = try await format.open(url)
        } throws: { error in
            (error as? PersistenceError)?.description.contains(url.path) == true
        }
        #expect(try Data(contentsOf: url) == bytes)
    }

    @Test(
        "a row that breaks the model's rules is refused, naming it, and the file left byte for byte",
        arguments: ListFormat.allCases)
    func brokenRow(format: ListFormat) async throws {
        let folder = try TemporaryFolder()
        let url = format.file(in: folder)
        let list = try await format.open(url)
        try list.store.add(Attraction(name: "Louvre"))
        try list.store.add(Attraction(name: "Orsay"))
        try await list.close()
        // Another program empties a name, which the model does not allow.
        switch format {
        case .document:
            let text = try String(contentsOf: url, encoding: .utf8)
            try Data(text.replacingOccurrences(of: "\"Orsay\"", with: "\"\"").utf8).write(to: url)
        case .database:
            try RawSQLite(url).execute("UPDATE elements SET name = '' WHERE name = 'Orsay'")
        case .server: Issue.record("a file's case only")
        }
        let bytes = try Data(contentsOf: url)

        await #expect {
            _ = try await format.open(url)
        } throws: { error in
            guard case .brokenRule(let path, let reason) = error as? PersistenceError else {
                return false
            }
            return path == url.path && reason.contains("name")
        }
        #expect(try Data(contentsOf: url) == bytes)
    }
}
