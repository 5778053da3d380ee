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

/// A store that looks for other processes' saves only when a test says, with what it saved.
@MainActor
final class QuietList {
    let store: AttractionStore
    let url: URL
    let format: ListFormat
    private(set) var notices: [String] = []
    private var token: ObservationToken?
    private let writing: @MainActor () async throws -> Void
    private let looking: @MainActor () async throws -> Void
    private let closing: @MainActor () async throws -> Void

    init(_ format: ListFormat, at url: URL) async throws {
        self.format = format
        self.url = url
        switch format {
        case .document:
            let (store, saver) = try await AttractionStore.open(
                at: url, delay: .milliseconds(20), watching: false)
            self.store = store
            (writing, looking, closing) = (saver.flush, saver.flushAndLook, saver.flush)
        case .database:
            let (store, persistence) = try await AttractionStore.openDatabase(
                at: url, pollInterval: nil)
            self.store = store
            writing = persistence.flush
            looking = { persistence.lookForChanges() }
            closing = { try await persistence.close() }
        case .server:
            let (store, persistence) = try await AttractionStore.openTable(
                at: PostgresLocation(url.absoluteString), listening: false)
            self.store = store
            writing = persistence.flush
            looking = { persistence.lookForChanges() }
            closing = { try await persistence.close() }
        }
        token = store.notice.observe(options: .new) { [weak self] change in
            if let notice = change.newValue ?? nil { self?.notices.append(notice.message) }
        }
    }

    func flush() async throws { try await writing() }
    /// Looks for other processes' saves once (a database's look ends on its own).
    func look() async throws { try await looking() }
    func close() async throws { try await closing() }

    /// The list on disk, as a program that only reads it sees it.
    func onDisk() async throws -> [Attraction] {
        switch format {
        case .document:
            try await DocumentFile(url: url, format: .attractions).load() ?? []
        case .database: try await SQLiteListFile<Attraction>.read(from: url)
        case .server:
            try await PostgresListTable<Attraction>.read(from: PostgresLocation(url.absoluteString))
        }
    }
}

/// The promises every adapter makes when another process shares its list, each case run against
/// each adapter with a real second process (`other-process`, Tests/OtherProcess).
@MainActor
@Suite("Every adapter's promises to two processes on one list")
struct SharedPromiseTests {
    /// A list of A, B, C and D written here, and another process that has read it and looks
    /// for nothing by itself.
    private static func fourRowsInTwoProcesses(_ format: ListFormat) async throws -> (
        TemporaryFolder, QuietList, OtherStoreProcess
    ) {
        let folder = try TemporaryFolder()
        let here = try await QuietList(format, at: format.file(in: folder))
        for name in ["A", "B", "C", "D"] { try here.store.add(Attraction(name: name)) }
        try await here.flush()
        return (folder, here, try await OtherStoreProcess(here.url, watch: nil))
    }

    /// The list at `url` opened as `ListStore.open(at:)` or `openDatabase(at:)` opens it by
    /// default, with what writes everything and lets go.
    private static func openWithDefaults(_ format: ListFormat, _ url: URL) async throws -> (
        AttractionStore, () async throws -> Void
    ) {
        switch format {
        case .document:
            let (store, saver) = try await AttractionStore.open(at: url)
            return (store, { try await saver.flush() })
        case .database:
            let (store, persistence) = try await AttractionStore.openDatabase(at: url)
            return (store, { try await persistence.close() })
        case .server:
            let (store, persistence) = try await AttractionStore.openTable(
                at: PostgresLocation(url.absoluteString))
            return (store, { try await persistence.close() })
        }
    }

    @Test(
        "opened with the defaults, a list shows another process's edit without saving anything itself",
        arguments: ListFormat.shared)
    func defaultsFollowOtherProcesses(format: ListFormat) async throws {
        let folder = try TemporaryFolder()
        let url = format.file(in: folder)
        let (store, close) = try await Self.openWithDefaults(format, url)
        try store.add(Attraction(name: "Louvre"))
        try await close()
        let (reopened, closeAgain) = try await Self.openWithDefaults(format, url)
        let there = try await OtherStoreProcess(url, watch: nil)

        try await there.run("add 1 Orsay")
        try await there.run("flush")

        #expect(await eventually { reopened.elements.map(\.name) == ["Louvre", "Orsay"] })
        try await closeAgain()
        try await there.close()
    }

    @Test(
        "undoing a delete after another process kept the row with its edit keeps that edit, and says so",
        arguments: ListFormat.shared)
    func undoneDeleteKeepsTheirEdit(format: ListFormat) async throws {
        let folder = try TemporaryFolder()
        let here = try await QuietList(format, at: format.file(in: folder))
        try here.store.add(Attraction(name: "Louvre", notes: "paintings"))
        try here.store.add(Attraction(name: "Orsay"))
        try await here.flush()
        let there = try await OtherStoreProcess(here.url, watch: nil)

        try here.store.delete(at: 0)
        try await here.flush()
        // Before it looks, the other process edits the row deleted here: kept, and told there.
        try await there.run("notes 0 Winged Victory")
        try await there.run("flush")
        // Before this one looks, it undoes its delete.
        try here.store.undo()
        try await here.flush()

        let louvre = try await here.onDisk().first { $0.name == "Louvre" }
        #expect(louvre?.notes == "Winged Victory")
        // Told once the row the notice is about is in the store (at the look after the write).
        #expect(
            await eventually {
                here.notices.contains { $0.contains("the other process's version was kept") }
            })
        try await here.look()
        #expect(
            await eventually {
                here.store.elements.first { $0.name == "Louvre" }?.notes == "Winged Victory"
            })
        try await there.close()
    }

    @Test(
        "a move made right after taking in another process's move is what the file holds and the screen shows",
        arguments: ListFormat.shared)
    func movesAgree(format: ListFormat) async throws {
        let (folder, here, there) = try await Self.fourRowsInTwoProcesses(format)
        defer { withExtendedLifetime(folder) {} }

        try await there.run("move 3 0")
        try await there.run("flush")
        try await here.look()
        #expect(await eventually { here.store.elements.map(\.name) == ["D", "A", "B", "C"] })
        try here.store.move(from: 1, to: 3)
        try await here.flush()
        try await here.look()

        #expect(here.store.elements.map(\.name) == ["D", "B", "C", "A"])
        #expect(try await here.onDisk().map(\.name) == ["D", "B", "C", "A"])
        try await there.close()
    }

    @Test(
        "each process's moves of different rows both stand, in the file and on both screens",
        arguments: ListFormat.shared)
    func concurrentMoves(format: ListFormat) async throws {
        let (folder, here, there) = try await Self.fourRowsInTwoProcesses(format)
        defer { withExtendedLifetime(folder) {} }

        // Neither has seen the other's: D to the top there, A to the bottom (after D) here. Each
        // moved row goes after the row it follows where it was moved: A after D, wherever D is.
        try await there.run("move 3 0")
        try await there.run("flush")
        try here.store.move(from: 0, to: 3)
        try await here.flush()
        try await here.look()

        #expect(await eventually { here.store.elements.map(\.name) == ["D", "A", "B", "C"] })
        #expect(try await here.onDisk().map(\.name) == ["D", "A", "B", "C"])
        try await there.close()
    }

    /// The database only: a JSON document's flush waits until nothing is pending, and a process
    /// that overwrites the file without merging (as this one does) keeps something pending here.
    @Test(
        "flush returns once the edits made before it are written, while another process keeps saving",
        arguments: [ListFormat.database])
    func flushUnderForeignSaves(format: ListFormat) async throws {
        let folder = try TemporaryFolder()
        let url = format.file(in: folder)
        // Long enough that reading the whole list takes longer than the other's saves are apart.
        let rows = (0..<50_000).map { Attraction(name: "row \($0)") }
        switch format {
        case .document:
            _ = try await DocumentFile(url: url, format: .attractions).overwrite(with: rows)
        case .database: try await SQLiteListFile.write(rows, to: url)
        case .server:
            try await PostgresListTable.write(rows, to: PostgresLocation(url.absoluteString))
        }
        let list = try await format.open(url, every: .milliseconds(5))
        let writer = Process()
        writer.executableURL = try executable(named: "other-process")
        writer.arguments = ["--sqlite", url.path, "1"]
        writer.standardOutput = FileHandle.nullDevice
        try writer.run()
        defer { writer.terminate() }
        // Until the other process's saves are seen here.
        #expect(
            await eventually { list.store.count > 1 || list.store.elements.first?.name != "first" })

        // Stops the other process if flush has not returned by then: the test then fails,
        // instead of hanging.
        let watchdog = Task.detached {
            try await Task.sleep(for: .seconds(30))
            writer.terminate()
        }
        try list.store.add(Attraction(name: "mine"))
        try await list.flush()
        let stillSaving = writer.isRunning
        watchdog.cancel()

        #expect(stillSaving, "flush returned only once the other process was stopped")
        writer.terminate()
        try await list.close()
    }
}
