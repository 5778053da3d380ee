import CSQLite
import Foundation
import MVCDocumentStore
import MVCListStore
import MVCModel
import MVCObservation
import MVCSQLiteStore
import MVCStore
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Records a store's notices, in order.
@MainActor
final class Notices {
    var messages: [String] = []
    var token: ObservationToken?

    init(_ store: AttractionStore) {
        token = store.notice.observe(options: .new) { [weak self] change in
            if let notice = change.newValue ?? nil { self?.messages.append(notice.message) }
        }
    }
}

/// The list in a database, as a program that only reads it sees it.
enum ListOnDisk {
    static func read(_ url: URL) throws -> [Attraction] {
        try RawSQLite(url).rows("SELECT id, name, notes FROM elements ORDER BY rank").map {
            guard let id = Attraction.ID($0[0]) else { throw RawSQLite.Failure(description: $0[0]) }
            return Attraction(id: id, name: $0[1], notes: $0[2] == "NULL" ? "" : $0[2])
        }
    }
}

/// A store on a new database that only looks for other processes' commits when asked
/// (``SQLitePersistence/lookForChanges()``): a test decides when each process notices.
@MainActor
func openFollowingOnlyWhenAsked(_ url: URL) async throws -> (
    store: AttractionStore, persistence: SQLitePersistence<Attraction>
) {
    try await AttractionStore.openDatabase(at: url, pollInterval: nil)
}

/// A store on a new database `s.sqlite` in a new folder, holding Louvre, written: the start of
/// a test of what another program does to the file.
@MainActor
func openWithLouvre() async throws -> (
    folder: TemporaryFolder, url: URL, store: AttractionStore,
    persistence: SQLitePersistence<Attraction>
) {
    let folder = try TemporaryFolder()
    let url = folder.file("s.sqlite")
    let (store, persistence) = try await openFollowingOnlyWhenAsked(url)
    try store.add(Attraction(name: "Louvre"))
    try await persistence.flush()
    return (folder, url, store, persistence)
}

/// A store whose edits wait 50 ms for a lock, on a database another connection holds locked
/// (`BEGIN IMMEDIATE`) until the test commits it.
@MainActor
struct LockedDatabase {
    let folder: TemporaryFolder
    let url: URL
    let store: AttractionStore
    let persistence: SQLitePersistence<Attraction>
    /// The other program, a second process, that holds the lock.
    let other: OtherSQLiteProgram
}

@MainActor
func openLockedByAnother() async throws -> LockedDatabase {
    let folder = try TemporaryFolder()
    let url = folder.file("busy.sqlite")
    let (store, persistence) = try await AttractionStore.openDatabase(
        at: url, busyWait: .milliseconds(50), pollInterval: nil)
    let other = try await OtherSQLiteProgram.holdingWriteLock(on: url)
    return LockedDatabase(
        folder: folder, url: url, store: store, persistence: persistence, other: other)
}
