// `other-process --edit <file>`: another program on a list file, driven line by line.

import AttractionsStorage
import Foundation
import MVCDocumentStore
import MVCListStore
import MVCModel
import MVCPostgresStore
import MVCSQLiteStore
import MVCStore

/// Edits the list at `url` as standard input says, one command a line, then exits.
///
/// The list is a PostgreSQL table for a `postgres://` URL, an SQLite database for `.sqlite`, else
/// a JSON document saved `delay` after an
/// edit, opened as a program would, looking for other processes' saves every `watch` (never, if
/// `nil`); `open` is printed once it is. Each command prints one line: `ok` (and the new id, for
/// `add`), the list as JSON for `list`, or `error: …`.
///
///     add <position> <name>   move <from> <to>     delete <which>
///     rename <which> <name>   notes <which> <text> undo
///     flush                   list                 close (then exits)
///
/// `<which>` is a position or an attraction's id; positions past the end are taken as the end,
/// so that a command a merge overtook still runs.
@MainActor
func editList(at url: URL, delay: Duration, watch: Duration?) async -> Never {
    let flush: () async throws -> Void
    let close: () async throws -> Void
    let store: AttractionStore
    do {
        if !url.isFileURL {
            let (opened, persistence) = try await AttractionStore.openTable(
                at: PostgresLocation(url.absoluteString), listening: watch != nil)
            keepUntilExit(persistence)
            (store, flush, close) = (opened, persistence.flush, { try await persistence.close() })
        } else if url.pathExtension == "sqlite" {
            // "Never" is an hour: a poller that never wakes keeps its weak reference to the
            // persistence, whose table LeakSanitizer would otherwise report at exit.
            let (opened, persistence) = try await AttractionStore.openDatabase(
                at: url, pollInterval: watch ?? .seconds(3_600))
            (store, flush, close) = (opened, persistence.flush, { try await persistence.close() })
        } else {
            let (opened, saver) = try await AttractionStore.open(
                at: url, delay: delay, watchInterval: watch, watching: watch != nil)
            (store, flush, close) = (opened, saver.flush, saver.flush)
        }
    } catch {
        answer("error: \(error)")
        exit(1)
    }
    answer("open")
    for await line in standardInputLines() {
        let words = line.split(separator: " ", maxSplits: 2).map(String.init)
        let last = max(store.count - 1, 0)
        let position = words.count > 1 ? Int(words[1]).map { min($0, last) } : nil
        // The position of the attraction a command names, by position or by id.
        let id = words.count > 1 ? Attraction.ID(words[1]) : nil
        let which = position ?? store.elements.firstIndex { $0.id == id }
        do {
            switch (words.first, which) {
            case ("add", _) where words.count == 3:
                let added = Attraction(name: words[2])
                try store.add(added, at: min(Int(words[1]) ?? 0, store.count))
                answer("ok \(added.id)")
                continue
            case ("move", let from?) where words.count == 3:
                try store.move(from: from, to: min(Int(words[2]) ?? 0, last))
            case ("delete", let position?):
                _ = try store.delete(at: position)
            case ("rename", let position?) where words.count == 3:
                let old = try store.element(at: position)
                try store.replace(
                    old.id, with: Attraction(id: old.id, name: words[2], notes: old.notes))
            case ("notes", let position?) where words.count == 3:
                let old = try store.element(at: position)
                try store.replace(
                    old.id, with: Attraction(id: old.id, name: old.name, notes: words[2]))
            case ("undo", _): try store.undo()
            case ("flush", _):
                // A save that waited out the lock's patience wrote nothing and stays pending: tried
                // again once, as a program would (three processes saving as fast as they can
                // under a sanitizer have kept one from the lock for over 10 s; flock is not fair).
                do { try await flush() } catch  where "\(error)".contains("held the lock") {
                    try await flush()
                }
            case ("list", _):
                let json = try JSONEncoder().encode(store.elements)
                answer(String(decoding: json, as: UTF8.self))
                continue
            case ("close", _):
                try await close()
                answer("ok")
                exit(0)
            default:
                answer("error: no such command: \(line)")
                continue
            }
            answer("ok")
        } catch {
            answer("error: \(error)")
        }
    }
    exit(0)
}

/// Prints `line` at once (standard output is a pipe, which would otherwise buffer it).
private func answer(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// The lines of standard input, read on a thread of their own so the main actor stays free.
private func standardInputLines() -> AsyncStream<String> {
    AsyncStream { continuation in
        Thread.detachNewThread {
            while let line = readLine() { continuation.yield(line) }
            continuation.finish()
        }
    }
}

/// Weak references that last until exit, one to each persistence whose worker refers to it weakly.
///
/// LeakSanitizer reads a weak reference's side table that only its object's header names
/// (shifted, not as a pointer) as leaked at exit; a weak reference held here names it plainly.
/// SQLite's persistence is named so by its poller.
@MainActor private var keptUntilExit: [WeakReference] = []

private final class WeakReference {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}

@MainActor func keepUntilExit(_ object: AnyObject) {
    keptUntilExit.append(WeakReference(object))
}
