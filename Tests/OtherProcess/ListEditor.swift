// `other-process --edit <file>`: another program on a list file, driven line by line.

import Foundation
import MVCModel
import MVCPersistence
import MVCSQLiteStore
import MVCStore

/// Edits the list at `url` as standard input says, one command a line, then exits.
///
/// The list is an SQLite database for `.sqlite`, else a JSON document, opened as a program would,
/// following other processes' saves every 100 ms; `open` is printed once it is. Each command
/// prints one line: `ok`, the list as JSON for `list`, or `error: …`.
///
///     add <position> <name>     move <from> <to>        delete <position>
///     rename <position> <name>  notes <position> <text> undo
///     flush                     list                    close (then exits)
@MainActor
func editList(at url: URL) async -> Never {
    let flush: () async throws -> Void
    let close: () async throws -> Void
    let store: AttractionStore
    do {
        if url.pathExtension == "sqlite" {
            let (opened, persistence) = try await AttractionStore.openDatabase(
                at: url, pollInterval: .milliseconds(100))
            (store, flush, close) = (opened, persistence.flush, { try await persistence.close() })
        } else {
            let (opened, saver) = try await AttractionStore.open(at: url, delay: .milliseconds(20))
            _ = saver.watchForSaves(fallbackInterval: .milliseconds(100))
            (store, flush, close) = (opened, saver.flush, saver.flush)
        }
    } catch {
        answer("error: \(error)")
        exit(1)
    }
    answer("open")
    for await line in standardInputLines() {
        let words = line.split(separator: " ", maxSplits: 2).map(String.init)
        let position = words.count > 1 ? Int(words[1]) : nil
        do {
            switch (words.first, position) {
            case ("add", let position?) where words.count == 3:
                try store.add(Attraction(name: words[2]), at: position)
            case ("move", let from?) where words.count == 3:
                try store.move(from: from, to: Int(words[2]) ?? -1)
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
            case ("flush", _): try await flush()
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
