import Foundation
import MVCListStore
import MVCModel
import MVCSQLiteStore
import MVCStore
import Testing

/// What the SQLite store makes on disk, and what it refuses before making anything.
@MainActor
@Suite("The SQLite store's files")
struct SQLiteFileTests {
    @Test("a pipe given as the database is refused at opening, saying what it is, and left alone")
    func pipeRefused() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.sqlite")
        #expect(mkfifo(url.path, 0o600) == 0)

        await #expect {
            _ = try await AttractionStore.openDatabase(at: url)
        } throws: { error in
            "\(error)".contains("it is not a file but a device, a pipe or a socket")
        }
        #expect(try folder.contents() == ["a.sqlite"])
    }

    @Test("a new database and its -wal and -shm files are readable by their owner only")
    func newFilesArePrivate() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("s.sqlite")
        let (store, persistence) = try await AttractionStore.openDatabase(
            at: url, pollInterval: nil)
        try store.add(Attraction(name: "Louvre"))
        try await persistence.flush()

        for suffix in ["", "-wal", "-shm"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path + suffix)
            let mode = try #require(attributes[.posixPermissions] as? Int)
            #expect(mode == 0o600, "s.sqlite\(suffix) has mode \(String(mode, radix: 8))")
        }
        try await persistence.close()
    }

    @Test(
        "a database name that leaves SQLite no room for its -journal file is refused before any file is made, saying why",
        arguments: [248, 255])
    func nameTooLong(length: Int) async throws {
        let folder = try TemporaryFolder()
        let url = folder.file(String(repeating: "a", count: length - ".sqlite".count) + ".sqlite")

        let error = await #expect(throws: PersistenceError.self) {
            _ = try await AttractionStore.openDatabase(at: url, pollInterval: nil)
        }

        #expect(
            error?.description.contains("use a name of at most 247 bytes") == true,
            "\(String(describing: error))")
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test("a database restored in place, then edited here, shows what the file holds")
    func restoredThenWritten() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.sqlite")
        let backup = folder.file("backup.sqlite")
        let (store, persistence) = try await AttractionStore.openDatabase(
            at: url, pollInterval: nil)
        try store.add(Attraction(name: "Louvre"))
        try await persistence.flush()
        try await OtherSQLiteProgram.run(
            OtherSQLiteProgram.execute, url, "VACUUM INTO '\(backup.path)'")
        for name in ["Orsay", "Cluny", "Rodin"] { try store.add(Attraction(name: name)) }
        try await persistence.flush()
        // Restored from the copy in place by another program, then edited here.
        try await OtherSQLiteProgram.run(
            OtherSQLiteProgram.execute, url,
            "ATTACH '\(backup.path)' AS old; DELETE FROM main.elements; INSERT INTO main.elements SELECT * FROM old.elements"
        )
        for index in 0..<3 { try store.add(Attraction(name: "New \(index)")) }
        try await persistence.flush()
        persistence.lookForChanges()

        let onDisk = { (try? RawSQLite(url).rows("SELECT name FROM elements ORDER BY rank")) ?? [] }
        #expect(
            await eventually { store.elements.map { [$0.name] } == onDisk() },
            "shown \(store.elements.map(\.name)), in the file \(onDisk())")
        try await persistence.close()
    }
}
