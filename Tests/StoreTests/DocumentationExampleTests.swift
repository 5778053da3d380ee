import Foundation
import MVCStore
import Testing

/// The example of the MVCStore documentation article, compiled and run so it cannot rot.
@Suite("The documentation's example")
struct StoreDocumentationExampleTests {
    @Test("the MVCStore overview example saves and loads a settings document")
    func overviewExample() async throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url

        // BEGIN MVCStore example
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
        try await file.save(settings)
        // END MVCStore example

        #expect(try await file.load()?.isDarkModeOn == true)
    }
}
