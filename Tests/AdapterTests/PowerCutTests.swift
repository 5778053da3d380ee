import AttractionsStorage
import Foundation
import MVCDocumentStore
import MVCModel
import MVCStore
import TestSupport
import Testing

/// A disk that records a replacement's calls and the states a power cut could leave.
///
/// After each call it notes what the target could hold after a cut: data written but not synced
/// may be lost, a rename or a new entry not yet synced into its folder may be undone. Only the
/// target file matters here.
final class SimulatedDisk: FileReplacementSteps {
    private struct Disk {
        /// Each file's content as written, and as synced.
        var written: [Int32: Data] = [:]
        var synced: [Int32: Data] = [:]
        /// The folder's entries as they are, and as synced.
        var entries: [String: Int32] = [:]
        var syncedEntries: [String: Int32] = [:]
        var nextHandle: Int32 = 100
        /// The target's possible contents after a power cut at each point so far.
        var crashStates: [Data?] = []
    }

    private let disk: Locked<Disk>
    private let target: String
    /// Whether `sync` does nothing, as a save that forgot to sync would.
    private let ignoresSync: Bool

    /// A disk on which `target` holds `contents`, durably.
    init(target: String, contents: Data, ignoresSync: Bool = false) {
        var disk = Disk()
        disk.written[1] = contents
        disk.synced[1] = contents
        disk.entries[target] = 1
        disk.syncedEntries[target] = 1
        self.disk = Locked(disk)
        self.target = target
        self.ignoresSync = ignoresSync
        record()
    }

    /// Every content the target could have after a power cut at any point of the replacement;
    /// `nil` where the target would not exist.
    var possibleContents: [Data?] { disk.withLock { $0.crashStates } }

    /// Adds the states a power cut now could leave: either folder state, and for the file it
    /// names, what was synced or everything written.
    private func record() {
        disk.withLock { disk in
            for entries in [disk.syncedEntries, disk.entries] {
                guard let handle = entries[target] else {
                    disk.crashStates.append(nil)
                    continue
                }
                disk.crashStates.append(disk.synced[handle] ?? Data())
                disk.crashStates.append(disk.written[handle] ?? Data())
            }
        }
    }

    func createNew(_ path: String) throws(FileReplacementFailure) -> Int32 {
        let handle = disk.withLock { disk in
            let handle = disk.nextHandle
            disk.nextHandle += 1
            disk.written[handle] = Data()
            disk.entries[path] = handle
            return handle
        }
        record()
        return handle
    }

    func copyPermissions(from target: String, to handle: Int32) {}

    func write(_ data: Data, to handle: Int32) {
        // Written in two halves, so a cut between them leaves half a file in the page cache.
        disk.withLock { $0.written[handle, default: Data()].append(data.prefix(data.count / 2)) }
        record()
        disk.withLock { $0.written[handle, default: Data()].append(data.dropFirst(data.count / 2)) }
        record()
    }

    func sync(_ handle: Int32) {
        guard !ignoresSync else { return }
        disk.withLock { $0.synced[handle] = $0.written[handle] }
        record()
    }

    func close(_ handle: Int32) {}

    func rename(_ source: String, to destination: String) {
        disk.withLock { disk in
            disk.entries[destination] = disk.entries.removeValue(forKey: source)
        }
        record()
    }

    func syncFolder(_ path: String) {
        guard !ignoresSync else { return }
        disk.withLock { $0.syncedEntries = $0.entries }
        record()
    }

    func remove(_ path: String) {
        disk.withLock { _ = $0.entries.removeValue(forKey: path) }
        record()
    }
}

@Suite("A save survives a power cut")
struct PowerCutTests {
    private let old = [Attraction(name: "Louvre"), Attraction(name: "Orsay")]
    private let new = [
        Attraction(name: "Louvre", notes: "Mona Lisa"), Attraction(name: "Eiffel Tower"),
    ]

    /// What each state a power cut could leave loads as: the old list, the new one, or neither.
    private func outcomes(ignoringSyncs: Bool) throws -> [String] {
        let folder = try TemporaryFolder()
        let file = DocumentFile(url: folder.file("a.json"), format: .attractions)
        let disk = SimulatedDisk(
            target: folder.file("a.json").path,
            contents: try file.encode(old, history: SaveHistory()),
            ignoresSync: ignoringSyncs)

        try file.overwrite(with: new, steps: disk)

        return disk.possibleContents.map { contents in
            guard let contents, let loaded = try? file.decode(contents) else { return "neither" }
            return loaded == old ? "old" : loaded == new ? "new" : "neither"
        }
    }

    @Test("every state a power cut could leave during a save loads as the old or the new list")
    func everyCrashStateLoads() throws {
        let outcomes = try outcomes(ignoringSyncs: false)

        #expect(!outcomes.contains("neither"))
        #expect(outcomes.contains("old") && outcomes.last == "new")
    }

    @Test("the check catches a save that does not sync: a power cut could leave a broken file")
    func missingSyncIsCaught() throws {
        let outcomes = try outcomes(ignoringSyncs: true)

        #expect(outcomes.contains("neither"))
    }
}
