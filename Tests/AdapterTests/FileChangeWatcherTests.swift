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

    #if os(Linux)
        @Test(
            "inotify's events are read in the machine's byte order, a long name and a padded one alike"
        )
        func inotifyEventsInTheMachinesByteOrder() {
            /// One `struct inotify_event` as the kernel writes it: four 32-bit fields in the
            /// machine's order, then the name padded with zero bytes to `length`.
            func event(_ name: String, length: Int) -> [UInt8] {
                var bytes: [UInt8] = []
                for field in [UInt32(1), 0x100, 0, UInt32(length)] {
                    withUnsafeBytes(of: field) { bytes += $0 }
                }
                let utf8 = Array(name.utf8)
                return bytes + utf8 + [UInt8](repeating: 0, count: length - utf8.count)
            }
            let long = String(repeating: "n", count: 250) + ".json"
            let buffer =
                event("trip.json", length: 16) + event(long, length: 272) + event("", length: 0)

            #expect(InotifyEvents.names(in: buffer[...]) == ["trip.json", long])
        }
    #endif
}
