import Foundation
import MVCListStore
import MVCModel
import MVCObservation
import MVCSQLiteStore
import MVCStore
import Testing

/// Closing takes no edit it will not write, and says so of each it does not take.
@MainActor
@Suite("The SQLite store when edits arrive at or after closing")
struct SQLiteClosingTests {
    @Test(
        "an edit made after close() returned is shown not saved, flush() throws, and the file has it not"
    )
    func editAfterClose() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("s.sqlite")
        let (store, persistence) = try await AttractionStore.openDatabase(
            at: url, pollInterval: nil)
        for index in 1...200 { try store.add(Attraction(name: "A\(index)")) }
        try await persistence.close()

        try store.add(Attraction(name: "Late"))

        #expect(store.saving.value != .saved)
        await #expect(throws: PersistenceError.self) { try await persistence.flush() }
        #expect(try ListOnDisk.read(url).count == 200)
    }

    @Test("an edit refused while closing stays told, though the write closing waited for succeeds")
    func refusedWhileClosing() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("s.sqlite")
        let (store, persistence) = try await AttractionStore.openDatabase(
            at: url, pollInterval: nil)
        try store.add(Attraction(name: "First"))
        try await persistence.flush()
        // Another program holds the lock, so closing waits with an edit queued.
        let other = try await OtherSQLiteProgram.holdingWriteLock(on: url)
        try store.add(Attraction(name: "Queued"))
        let closing = Task { try await persistence.close() }
        while !persistence.isClosing { await Task.yield() }
        try store.add(Attraction(name: "Late"))
        try await other.release()
        await #expect(throws: PersistenceError.self) { try await closing.value }

        #expect(store.saving.value != .saved)
        await #expect(throws: PersistenceError.self) { try await persistence.flush() }
        #expect(try ListOnDisk.read(url).map(\.name) == ["First", "Queued"])
    }

    @Test(
        "a steady stream of edits cannot hold close() open: it writes what it took, and says the rest"
    )
    func steadyStreamWhileClosing() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("s.sqlite")
        let (store, persistence) = try await AttractionStore.openDatabase(
            at: url, pollInterval: nil)
        try store.add(Attraction(name: "First"))
        let stream = Task { @MainActor in
            var index = 0
            while !Task.isCancelled {
                index += 1
                try? store.add(Attraction(name: "S\(index)"))
                await Task.yield()
            }
        }
        try await Task.sleep(for: .milliseconds(20))

        // Returns, however long the stream goes on (throwing, if it refused an edit meanwhile).
        _ = try? await persistence.close()
        let written = try ListOnDisk.read(url).count
        #expect(await eventually { store.elements.count > written })
        stream.cancel()
        _ = await stream.value

        #expect(written >= 1)
        #expect(store.saving.value != .saved)
        await #expect(throws: PersistenceError.self) { try await persistence.flush() }
        #expect(try ListOnDisk.read(url).count == written)
    }
}
