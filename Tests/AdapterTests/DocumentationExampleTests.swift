import Foundation
import MVCAvatarServiceLive
import MVCDocumentStore
import MVCListStore
import MVCModel
import MVCObservation
import MVCPostgresStore
import MVCSQLiteStore
import MVCStore
import Testing

/// The examples of the MVCDocumentStore and MVCStore documentation articles, compiled and run so it cannot rot.
@Suite("The documentation's example")
struct StoreDocumentationExampleTests {
    @Test("the MVCDocumentStore overview example saves and loads a settings document")
    func overviewExample() async throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url

        // BEGIN MVCDocumentStore example
        struct Settings: Codable, Sendable {
            var isDarkModeOn = false
        }
        struct UnsupportedVersion: Error {
            var version: Int
        }

        let format = FileFormat<Settings>(currentVersion: 1) { version, _ in
            throw UnsupportedVersion(version: version)
        }
        let file = DocumentFile(url: folder.appending(path: "settings.json"), format: format)
        var settings = try await file.load() ?? Settings()
        settings.isDarkModeOn = true
        try await file.overwrite(with: settings)
        // END MVCDocumentStore example

        #expect(try await file.load()?.isDarkModeOn == true)
    }

    @Test("the MVCStore overview example hears an add and its undo, with their values")
    @MainActor
    func storeExample() throws {
        // BEGIN MVCStore example
        let store = AttractionStore()
        var heard: [String] = []
        let token = store.changes.subscribeToAll { update in
            heard.append(update.change.summary)
        }
        try store.add(Attraction(name: "Louvre"))
        try store.undo()
        // heard == ["“Louvre” inserted at 0", "“Louvre” removed from 0"]
        // END MVCStore example

        #expect(heard == ["“Louvre” inserted at 0", "“Louvre” removed from 0"])
        withExtendedLifetime(token) {}
    }

    @Test("the MVCAvatarServiceLive overview example reads an avatar from a folder")
    func liveServiceExample() async throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url
        try SimulatedAvatarService.picture(for: try EmailAddress("ada@example.com")).netpbmData
            .write(to: folder.appending(path: "ada@example.com"))

        // BEGIN MVCAvatarServiceLive example
        let service = LiveAvatarService(
            baseURL: folder, timeout: .seconds(5), maximumResponseSize: 64 * 1_024)
        let avatar = try await service.avatar(for: try EmailAddress("ada@example.com"))
        // avatar.format == .netpbm, and avatar.picture holds the decoded picture
        // END MVCAvatarServiceLive example

        #expect(avatar.format == .netpbm)
        #expect(try avatar.picture?.get().width == 8)
    }

    @Test("the MVCSQLiteStore overview example keeps a list in a database, in order")
    @MainActor
    func databaseExample() async throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url

        // BEGIN MVCSQLiteStore example
        let url = folder.appending(path: "attractions.sqlite")
        let (store, persistence) = try await AttractionStore.openDatabase(at: url)
        try store.add(Attraction(name: "Louvre"))
        try store.add(Attraction(name: "Orsay"))
        try store.move(from: 1, to: 0)
        try await persistence.close()
        let kept = try await SQLiteListFile<Attraction>.read(from: url)
        // kept.map(\.name) == ["Orsay", "Louvre"]
        // END MVCSQLiteStore example

        #expect(kept.map(\.name) == ["Orsay", "Louvre"])
    }

    @Test(
        "the MVCPostgresStore overview example keeps a list in a table, in order",
        .enabled(if: PostgresTestServer.url != nil, "no server: see PostgresFaultTests"))
    @MainActor
    func tableExample() async throws {
        let server = try #require(PostgresTestServer.url)
        _ = try? PostgresTestServer.run("DROP TABLE IF EXISTS attractions_example")
        _ = try? PostgresTestServer.run("DROP TABLE IF EXISTS attractions_example_tombstones")
        _ = try? PostgresTestServer.run(
            "DELETE FROM mvclayers_lists WHERE list = 'attractions_example'")

        // BEGIN MVCPostgresStore example
        let location = try PostgresLocation("\(server)#attractions_example")
        let (store, persistence) = try await AttractionStore.openTable(at: location)
        try store.add(Attraction(name: "Louvre"))
        try store.add(Attraction(name: "Orsay"))
        try store.move(from: 1, to: 0)
        try await persistence.close()
        let kept = try await PostgresListTable<Attraction>.read(from: location)
        // kept.map(\.name) == ["Orsay", "Louvre"]
        // END MVCPostgresStore example

        #expect(kept.map(\.name) == ["Orsay", "Louvre"])
    }
}
