import AttractionsStorage
import CSQLite
import Foundation
import MVCDocumentStore
import MVCListStore
import MVCModel
import MVCObservation
import MVCSQLiteStore
import MVCStore
import Synchronization

/// Another process's edit: how soon it is seen, and how long the main actor is kept busy.
extension DatabaseBenchmarks {
    // MARK: Another process's edit

    /// From another process's committed edit to this process's store holding it.
    static func reaching(in folder: URL, edits: Int) async {
        for (kind, name) in [("sqlite", "SQLite"), ("json", "JSON document")] {
            let url = folder.appending(path: "reach.\(kind)")
            guard let list = try? await OpenBenchmarkList(url),
                let editor = await EditChild.start(url: url)
            else {
                print("  another process's edit, \(name): cannot start")
                continue
            }
            await list.store.finishIndexing()
            var samples: [Double] = []
            for _ in 0..<edits {
                let before = list.store.count
                guard let committed = await editor.edit() else { break }
                while list.store.count == before && Date().timeIntervalSince1970 - committed < 5 {
                    try? await Task.sleep(for: .microseconds(200))
                }
                samples.append((Date().timeIntervalSince1970 - committed) * 1e3)
            }
            editor.stop()
            let worst = samples.max() ?? .nan
            print(
                "  another process's edit reaching this process, \(name) (\(samples.count) edits)")
            print(
                "      \(format(worst)) ms at worst, \(format(median(samples))) ms median   vs   50 ms (the target)"
            )
            print("      \(format(worst / 50))x the target \(worst <= 50 ? "met" : "MISSED")")
            try? await list.close()
        }
    }

    /// Another process's edit of a long database: how soon it shows here, what this process
    /// spends on it (CPU per commit, which should not grow with the list: a look reads only what
    /// changed), and this process's resident memory before and after (which should not grow).
    ///
    /// The other process adds at the end, as the sample's `add` does; at the longest list it then
    /// adds at the top too, printed with no target: there the list's array moves every element
    /// (tens of megabytes at a million rows), a cost of its storage, not of reading the change.
    static func foreignEditsAtScale(_ lists: [(url: URL, count: Int)], edits: Int) async {
        var firstCPU: Double?
        for (url, count) in lists {
            guard let list = try? await OpenBenchmarkList(url),
                let editor = await EditChild.start(url: url)
            else {
                print("  another process's edit, \(counted(count)) rows: cannot start")
                continue
            }
            // The opening's last step (indexing the ids on another thread) is not a commit's.
            await list.store.finishIndexing()
            let memoryBefore = residentMegabytes()
            let (samples, cpu) = await shown(list, editor, edits: edits, atTop: false)
            let memoryAfter = residentMegabytes()
            let atTop =
                count == lists.last?.count
                ? await shown(list, editor, edits: edits, atTop: true).cpu : nil
            editor.stop()
            try? await list.close()
            let worst = samples.max() ?? .nan
            print(
                "  another process's edit of \(counted(count)) rows, SQLite (\(samples.count) edits)"
            )
            print(
                "      shown after \(format(worst)) ms at worst, \(format(median(samples))) ms median   vs   50 ms (the target): \(format(worst / 50))x, \(worst <= 50 ? "met" : "MISSED")"
            )
            let reference = firstCPU ?? cpu
            firstCPU = reference
            print(
                "      CPU here per commit: \(format(cpu)) ms   vs   \(format(reference)) ms at \(counted(lists.first?.count ?? 0)) rows: \(format(cpu / reference))x (target: at most 1.5x)"
            )
            print(
                "      resident memory: \(format(memoryBefore)) MB before the edits, \(format(memoryAfter)) MB after (+\(format(memoryAfter - memoryBefore)) MB)"
            )
            if let atTop {
                print(
                    "      each added at the top instead (no target): CPU here per commit \(format(atTop)) ms, \(format(atTop / reference))x"
                )
            }
        }
    }

    /// The times `edits` of the other process's adds took to show here (ms), and the CPU this
    /// process spent per commit (ms).
    private static func shown(
        _ list: OpenBenchmarkList, _ editor: EditChild, edits: Int, atTop: Bool
    ) async -> (samples: [Double], cpu: Double) {
        let cpuBefore = cpuMilliseconds()
        var samples: [Double] = []
        for _ in 0..<edits {
            let before = list.store.count
            guard let committed = await editor.edit(atTop: atTop) else { break }
            while list.store.count == before && Date().timeIntervalSince1970 - committed < 30 {
                try? await Task.sleep(for: .microseconds(200))
            }
            samples.append((Date().timeIntervalSince1970 - committed) * 1e3)
        }
        return (samples, (cpuMilliseconds() - cpuBefore) / Double(max(samples.count, 1)))
    }

    /// The CPU time this process has used, user and system, in milliseconds.
    static func cpuMilliseconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let seconds = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        let micro = Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
        return seconds * 1e3 + micro / 1e3
    }

    /// This process's resident memory now (`VmRSS`), in megabytes.
    static func residentMegabytes() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
        else { return .nan }
        return kilobytes / 1_024
    }

    /// The longest time the main actor was held while another process's edits of a long list
    /// were taken in, from a probe that asks the main actor for a moment every millisecond.
    static func longestJob(in folder: URL, count: Int, edits: Int) async {
        for (kind, name) in [("sqlite", "SQLite"), ("json", "JSON document")] {
            let url = folder.appending(path: "job.\(kind)")
            if kind == "sqlite" {
                try? await SQLiteListFile.write(attractions(count), to: url)
            } else {
                _ = try? await DocumentFile(url: url, format: .attractions).overwrite(
                    with: attractions(count))
            }
            guard let list = try? await OpenBenchmarkList(url),
                let editor = await EditChild.start(url: url)
            else {
                print("  the longest main-actor job, \(name): cannot start")
                continue
            }
            let probe = MainActorProbe()
            probe.start()
            for _ in 0..<edits {
                let before = list.store.count
                guard let committed = await editor.edit() else { break }
                while list.store.count == before && Date().timeIntervalSince1970 - committed < 10 {
                    try? await Task.sleep(for: .milliseconds(1))
                }
            }
            let longest = await probe.stop()
            editor.stop()
            print(
                "  the longest main-actor job while taking in another process's save, \(counted(count)) rows, \(name)"
            )
            print(
                "      \(format(longest)) ms   vs   16 ms (the target: one frame at 60 Hz)")
            print("      \(format(longest / 16))x the target \(longest <= 16 ? "met" : "MISSED")")
            try? await list.close()
        }
    }
}

/// A store open on a file in the format its extension names, following other processes' saves
/// from the system's notices, as the sample does.
@MainActor
final class OpenBenchmarkList {
    let store: AttractionStore
    private let closing: @MainActor () async throws -> Void

    init(_ url: URL) async throws {
        if url.pathExtension == "sqlite" {
            let (store, persistence) = try await AttractionStore.openDatabase(at: url)
            self.store = store
            closing = { try await persistence.close() }
        } else {
            let (store, saver) = try await AttractionStore.open(at: url, delay: .zero)
            saver.watchForSaves()
            self.store = store
            closing = { try await saver.flush() }
        }
    }

    func close() async throws { try await closing() }
}

/// Another process that adds one attraction to a list each time it is asked, and says when the
/// edit was committed (wall-clock seconds, the same clock in both processes).
///
/// Its answers are read without blocking (the pipe is non-blocking, and the wait between reads
/// is a task's sleep), so waiting for the child never holds the main actor the probe watches.
@MainActor
final class EditChild {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer: [UInt8] = []

    private init() {}

    /// Starts the child on the list at `url`; `nil` if it does not start.
    static func start(url: URL) async -> EditChild? {
        let child = EditChild()
        child.process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.process.arguments = ["--edit-child", url.path]
        child.process.standardInput = child.input
        child.process.standardOutput = child.output
        let descriptor = child.output.fileHandleForReading.fileDescriptor
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        guard (try? child.process.run()) != nil, await child.line() == "ready" else { return nil }
        return child
    }

    /// Asks for one edit, an add at the end (or at the top); the wall-clock time it was committed
    /// at.
    func edit(atTop: Bool = false) async -> Double? {
        input.fileHandleForWriting.write(Data((atTop ? "top\n" : "end\n").utf8))
        return await line().flatMap(Double.init)
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    private func line() async -> String? {
        let descriptor = output.fileHandleForReading.fileDescriptor
        var chunk = [UInt8](repeating: 0, count: 4_096)
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeSubrange(...end)
                return line
            }
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer += chunk[..<count]
            } else if count == 0 {
                return nil
            } else {
                try? await Task.sleep(for: .microseconds(100))
            }
        }
        return nil
    }

    /// In the child: opens the list, says "ready", then for each line read adds an attraction (at
    /// the top for "top", else at the end), waits until it is on disk, and prints the time.
    static func run(_ path: String) async {
        let url = URL(fileURLWithPath: path)
        let store: AttractionStore
        let flush: @MainActor () async -> Void
        if url.pathExtension == "sqlite" {
            guard
                let (opened, persistence) = try? await AttractionStore.openDatabase(
                    at: url, pollInterval: nil)
            else { return }
            store = opened
            flush = { try? await persistence.flush() }
        } else {
            guard let (opened, saver) = try? await AttractionStore.open(at: url, delay: .zero)
            else { return }
            store = opened
            flush = { try? await saver.flush() }
        }
        // Ready once its ids are indexed: its first edit would otherwise index them.
        await store.finishIndexing()
        FileHandle.standardOutput.write(Data("ready\n".utf8))
        var number = 0
        while let line = readLine() {
            number += 1
            try? store.add(
                Attraction(name: "from the child \(number)"), at: line == "top" ? 0 : nil)
            await flush()
            FileHandle.standardOutput.write(Data("\(Date().timeIntervalSince1970)\n".utf8))
        }
    }
}

/// Measures how long the main actor keeps others waiting: every millisecond, a thread of the
/// probe's own asks the main actor's queue to run an empty block, and the longest wait is kept.
///
/// A thread, not a task: the work measured keeps the cooperative pool busy (decoding, merging),
/// and a task's wait for a pool thread would be counted as the main actor's.
final class MainActorProbe: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let longest = Mutex<Double>(0)
    private let finished = DispatchSemaphore(value: 0)

    func start() {
        let thread = Thread { [self] in
            let clock = ContinuousClock()
            let ran = DispatchSemaphore(value: 0)
            while !stopped.load(ordering: .relaxed) {
                let asked = clock.now
                // The main actor's jobs run on the main queue, in order with this block.
                DispatchQueue.main.async { ran.signal() }
                ran.wait()
                let waited = asked.duration(to: clock.now)
                let milliseconds =
                    Double(waited.components.seconds) * 1e3
                    + Double(waited.components.attoseconds) / 1e15
                longest.withLock { $0 = max($0, milliseconds) }
                usleep(1_000)
            }
            finished.signal()
        }
        thread.start()
    }

    /// Stops probing; the longest wait in milliseconds.
    func stop() async -> Double {
        stopped.store(true, ordering: .relaxed)
        // Waited for off the main actor: the probe's last block needs it.
        await Task.detached { [finished] in finished.wait() }.value
        return longest.withLock { $0 }
    }
}

/// An SQLite connection of the benchmark's own, for the bare update the store's edit is compared
/// with: the same settings the store uses (write-ahead log, `synchronous = FULL`).
final class BareSQLite {
    private var handle: OpaquePointer?
    private var statement: OpaquePointer?

    init?(_ url: URL) {
        guard sqlite3_open(url.path, &handle) == SQLITE_OK else { return nil }
        sqlite3_busy_timeout(handle, 5_000)
        sqlite3_exec(handle, "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL", nil, nil, nil)
        guard
            sqlite3_prepare_v2(
                handle, "UPDATE elements SET notes = ? WHERE id = ?", -1, &statement, nil)
                == SQLITE_OK
        else { return nil }
    }

    deinit {
        sqlite3_finalize(statement)
        sqlite3_close_v2(handle)
    }

    /// Seconds to read every row's id, name and notes in rank order into Swift strings, as
    /// opening does before it decodes: the floor of opening a list.
    static func readAll(_ url: URL) -> Double {
        var handle: OpaquePointer?
        var statement: OpaquePointer?
        defer {
            sqlite3_finalize(statement)
            sqlite3_close_v2(handle)
        }
        guard sqlite3_open_v2(url.path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK,
            sqlite3_prepare_v2(
                handle, "SELECT id, name, notes FROM elements ORDER BY rank, rowid", -1,
                &statement, nil) == SQLITE_OK
        else { return .nan }
        let start = ContinuousClock.now
        var columns: [[String]] = [[], [], []]
        while sqlite3_step(statement) == SQLITE_ROW {
            for column in 0..<3 {
                let text = sqlite3_column_text(statement, Int32(column)).map {
                    String(
                        decoding: UnsafeBufferPointer(
                            start: $0, count: Int(sqlite3_column_bytes(statement, Int32(column)))),
                        as: UTF8.self)
                }
                columns[column].append(text ?? "")
            }
        }
        let elapsed = ContinuousClock.now - start
        let seconds =
            Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        withExtendedLifetime(columns) {}
        return seconds
    }

    /// Sets one row's notes in a transaction of its own.
    func update(id: String, notes: String) {
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        sqlite3_exec(handle, "BEGIN IMMEDIATE", nil, nil, nil)
        sqlite3_bind_text(statement, 1, notes, -1, transient)
        sqlite3_bind_text(statement, 2, id, -1, transient)
        sqlite3_step(statement)
        sqlite3_reset(statement)
        sqlite3_exec(handle, "COMMIT", nil, nil, nil)
    }
}
