import Foundation
import MVCDocumentStore
import Synchronization
import Testing

/// The operating system's notices of a document's changes, as the saver hears them.
@Suite("Watching a document for other programs' changes")
struct FileChangeWatcherTests {
    @Test(
        "a document written, moved away or deleted by another program is heard, each time",
        arguments: ["written", "moved away", "deleted"])
    func heardEachWay(change: String) async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        try Data("[]".utf8).write(to: url)
        let heard = Atomic(0)
        let watcher = try #require(
            FileChangeWatcher(files: [url]) { heard.add(1, ordering: .relaxed) })

        switch change {
        case "written": try Data("[1]".utf8).write(to: url)
        case "moved away":
            try FileManager.default.moveItem(at: url, to: folder.file("elsewhere.json"))
        default: try FileManager.default.removeItem(at: url)
        }

        let deadline = ContinuousClock.now + .seconds(10)
        while heard.load(ordering: .relaxed) == 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(heard.load(ordering: .relaxed) > 0, "not heard: the document was \(change)")
        withExtendedLifetime(watcher) {}
    }
}
