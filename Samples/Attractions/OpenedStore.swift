import AttractionsStorage
import Foundation
import MVCDocumentStore
import MVCListStore
import MVCModel
import MVCObservation
import MVCPostgresStore
import MVCSQLiteStore
import MVCStore
import MVCTracing

/// The attractions store, kept in the format the file's extension names: an SQLite database for
/// `.sqlite`, `.sqlite3` and `.db`, a JSON document otherwise; or in a PostgreSQL table, for a
/// `postgres://` URL.
///
/// This is the only place in the sample that knows the format: the presenters and the screen get
/// the same `AttractionStore` either way.
@MainActor
struct OpenedStore {
    /// How a list is kept on disk.
    enum Format: Equatable {
        /// A JSON document, rewritten whole (atomically) a moment after each burst of edits.
        case document
        /// An SQLite database, a row per attraction, each edit written at once.
        case database
        /// A PostgreSQL table on a server, shared by every machine that reaches it.
        case server

        /// The format `url`'s scheme or extension names.
        init(of url: URL) {
            if PostgresLocation.names(url.absoluteString) {
                self = .server
            } else {
                self =
                    ["sqlite", "sqlite3", "db"].contains(url.pathExtension.lowercased())
                    ? .database : .document
            }
        }

        /// The format in a sentence.
        var name: String {
            switch self {
            case .document: "a JSON document"
            case .database: "an SQLite database"
            case .server: "a PostgreSQL table"
            }
        }
    }

    /// Where `url` keeps the list, as the user reads it: a file's path, or a server's URL
    /// without its password.
    static func shown(_ url: URL) -> String {
        guard Format(of: url) == .server else { return url.path }
        return (try? location(url).description) ?? "the server"
    }

    /// The server's table `url` names: `attractions` if the URL names none.
    static func location(_ url: URL) throws(PersistenceError) -> PostgresLocation {
        try PostgresLocation(url.absoluteString, defaultTable: "attractions")
    }

    let store: AttractionStore
    let format: Format
    private let writePending: @MainActor () async -> String?
    private let close: @MainActor () async -> String?

    /// Opens the list at `url`, following other programs' saves from the operating system's
    /// notices (or every half second where there are none).
    static func open(_ url: URL, tracer: HopTracer) async throws(PersistenceError) -> OpenedStore {
        switch Format(of: url) {
        case .document:
            let (store, saver) = try await AttractionStore.open(
                at: url, watching: false, tracer: tracer)
            saver.watchForSaves(fallbackInterval: .milliseconds(500))
            let unconfirmed: @MainActor () -> String? = {
                // Written, but a power cut could still undo it: the user should know.
                guard case .unconfirmed = saver.status.value else { return nil }
                return saver.status.value.problem
            }
            let flush: @MainActor () async -> String? = {
                do throws(PersistenceError) {
                    try await saver.flush()
                } catch {
                    return error.description
                }
                return unconfirmed()
            }
            // At the end, a list that cannot be saved at its path (another program's file is
            // there now, say) is written whole beside it: nothing made here is lost.
            let close: @MainActor () async -> String? = {
                do throws(PersistenceError) {
                    // A last look: the file may have changed since the last notice was handled.
                    try await saver.flushAndLook()
                } catch {
                    return await keep(store.elements, beside: url, because: error.description)
                }
                return unconfirmed()
            }
            return OpenedStore(store: store, format: .document, writePending: flush, close: close)
        case .server:
            let (store, persistence) = try await AttractionStore.openTable(
                at: location(url), tracer: tracer)
            return OpenedStore(
                store: store, format: .server,
                writePending: { await failure(of: persistence.flush) },
                close: {
                    await failure(of: { () async throws(PersistenceError) in
                        try await persistence.close()
                    })
                })
        case .database:
            let (store, persistence) = try await AttractionStore.openDatabase(
                at: url, tracer: tracer)
            return OpenedStore(
                store: store, format: .database,
                writePending: { await failure(of: persistence.flush) },
                close: {
                    await failure(of: { () async throws(PersistenceError) in
                        try await persistence.close()
                    })
                })
        }
    }

    /// Writes `elements` to a new document beside `url` (`name.recovered.json`, or
    /// `name.recovered-2.json` and so on: never a file already there).
    ///
    /// - Returns: `problem`, and where the list went (or why it could not go there either).
    private static func keep(_ elements: [Attraction], beside url: URL, because problem: String)
        async -> String
    {
        let target = recoveryURL(for: url)
        do throws(PersistenceError) {
            try await DocumentFile(url: target, format: .attractions).create(elements)
        } catch _ {
            return "\(problem); nor could the list be written beside it"
        }
        return "\(problem); the list open here was written to \(target.path) instead"
    }

    /// The first name beside `url` that nothing has (a link that leads nowhere counts as
    /// something): `name.recovered.json`, then `name.recovered-2.json` and so on, the name
    /// shortened if a name's `NAME_MAX` bytes (255) would have no room for the suffix.
    private static func recoveryURL(for url: URL) -> URL {
        var stem = url.deletingPathExtension().lastPathComponent
        let suffix = url.pathExtension.isEmpty ? "" : ".\(url.pathExtension)"
        let room = Int(NAME_MAX) - suffix.utf8.count - ".recovered-99".count
        while !stem.isEmpty, stem.utf8.count > room {
            stem.removeLast()
        }
        for number in 1... {
            let name = "\(stem).recovered\(number == 1 ? "" : "-\(number)")\(suffix)"
            let candidate = url.deletingLastPathComponent().appending(path: name)
            if (try? FileManager.default.attributesOfItem(atPath: candidate.path)) == nil {
                return candidate
            }
        }
        return url
    }

    /// What went wrong in `work`, in a sentence, or `nil` if nothing did.
    private static func failure(
        of work: @MainActor () async throws(PersistenceError) -> Void
    ) async -> String? {
        do throws(PersistenceError) {
            try await work()
            return nil
        } catch {
            return error.description
        }
    }

    /// Writes every edit made so far.
    ///
    /// - Returns: Why that failed, if it did.
    func flush() async -> String? {
        await writePending()
    }

    /// Writes every edit made so far and lets go of the file.
    ///
    /// - Returns: Why writing failed, if it did.
    func finish() async -> String? {
        await close()
    }

    /// Copies the list at `source` into a new file at `target`, each in the format its
    /// extension names.
    ///
    /// - Returns: How many attractions were copied.
    /// - Throws: `PersistenceError` if `source` cannot be read (or does not exist), or `target`
    ///   exists already or cannot be written; an existing target is never replaced.
    static func convert(_ source: URL, to target: URL) async throws(PersistenceError) -> Int {
        let attractions: [Attraction]
        switch Format(of: source) {
        case .document:
            guard let loaded = try await DocumentFile(url: source, format: .attractions).load()
            else {
                throw .unreadable(path: source.path, reason: "there is no such file")
            }
            attractions = loaded
        case .database:
            guard FileManager.default.fileExists(atPath: source.path) else {
                throw .unreadable(path: source.path, reason: "there is no such file")
            }
            attractions = try await SQLiteListFile<Attraction>.read(from: source)
        case .server:
            attractions = try await PostgresListTable<Attraction>.read(
                from: location(source))
        }
        switch Format(of: target) {
        case .document:
            try await DocumentFile(url: target, format: .attractions).create(attractions)
        case .database:
            try await SQLiteListFile<Attraction>.write(attractions, to: target)
        case .server:
            try await PostgresListTable<Attraction>.write(
                attractions, to: location(target))
        }
        return attractions.count
    }
}
