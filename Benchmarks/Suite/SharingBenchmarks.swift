import AttractionsStorage
import Foundation
import MVCDocumentStore
import MVCListStore
import MVCModel
import MVCStore

/// The figures of several processes on one file: what the lock and the change check add to a
/// save, a merge beside a plain load, and how soon a running program shows another's save.
@MainActor
enum SharingBenchmarks {
    static func run(stopwatch: Stopwatch) async {
        print("\nMVCDocumentStore: several processes on one file")
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "mvclayers-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        await lockedSave(in: folder, stopwatch: stopwatch)
        await merge(in: folder, stopwatch: stopwatch)
        await timeToShow(in: folder)
    }

    private static func attractions(_ count: Int) -> [Attraction] {
        (0..<count).map { Attraction(name: "Attraction \($0)", notes: "Notes on \($0)") }
    }

    /// A save with the change check against a plain save (both hold the lock), each on a file of
    /// its own: every save names itself in the file, so a plain save would change the checked one's
    /// file under it.
    private static func lockedSave(in folder: URL, stopwatch: Stopwatch) async {
        let document = attractions(100_000)
        let file = DocumentFile(url: folder.appending(path: "locked.json"), format: .attractions)
        let plainFile = DocumentFile(
            url: folder.appending(path: "plain.json"), format: .attractions)
        _ = try? await file.overwrite(with: document)
        _ = try? await plainFile.overwrite(with: document)
        guard var base = try? await file.readSnapshot() else {
            print("  a locked save: cannot write in \(folder.path)")
            return
        }
        let (locked, plain) = await stopwatch.alternatingAsyncNanoseconds(
            measured: {
                // The base moves to what each save wrote, as the saver's does.
                if let outcome = try? await file.save(
                    document, over: base, merge: ListMerge<Attraction>.merge)
                {
                    base = outcome.snapshot
                }
            },
            reference: { _ = try? await plainFile.overwrite(with: document) })
        Comparison(
            name: "a save of 100,000 attractions with the change check (read and compare the file)",
            measured: locked / 1e6, reference: plain / 1e6,
            referenceName: "(a plain save, which takes the lock and reads the file's saves too)",
            unit: "ms",
            target: .atMost(1.1)
        ).print()
    }

    /// A three-way merge of two 100,000-row versions with 100 edits on each side.
    private static func merge(in folder: URL, stopwatch: Stopwatch) async {
        let base = attractions(100_000)
        var ours = base
        var theirs = base
        for index in 0..<100 {
            ours[index * 900].notes = "ours \(index)"
            theirs[index * 900 + 450].notes = "theirs \(index)"
        }
        let merged = stopwatch.nanosecondsPerOperation(operations: 1) {
            blackHole(ListMerge<Attraction>.merge(base: base, ours: ours, theirs: theirs))
        }
        let file = DocumentFile(url: folder.appending(path: "merge.json"), format: .attractions)
        _ = try? await file.overwrite(with: base)
        let load = await stopwatch.asyncNanoseconds { blackHole(try? await file.load()) }
        Comparison(
            name: "a merge of two 100,000-row versions with 100 edits on each side",
            measured: merged / 1e6, reference: load / 1e6,
            referenceName: "(a plain load of the same file)", unit: "ms", target: .none
        ).print()
    }

    /// From another process's save to a running program's store showing it, with the watch
    /// interval the attractions sample uses (500 ms).
    private static func timeToShow(in folder: URL) async {
        let url = folder.appending(path: "shown.json")
        guard
            let watching = try? await AttractionStore.open(
                at: url, watchInterval: .milliseconds(500)),
            let other = try? await AttractionStore.open(at: url)
        else {
            print("  another process's save: cannot open a store in \(folder.path)")
            return
        }
        var samples: [Double] = []
        let clock = ContinuousClock()
        for round in 0..<5 {
            try? other.store.add(Attraction(name: "round \(round)"))
            try? await other.saver.flush()
            let saved = clock.now
            while watching.store.count <= round && clock.now - saved < .seconds(5) {
                try? await Task.sleep(for: .milliseconds(1))
            }
            let elapsed = clock.now - saved
            samples.append(
                Double(elapsed.components.seconds) * 1e3
                    + Double(elapsed.components.attoseconds) / 1e15)
        }
        let worst = samples.max() ?? 0
        print(
            "  from another process's save to a running program showing it (5 saves, watch every 500 ms)"
        )
        print(
            "      \(format(worst)) ms at worst, \(format(samples.reduce(0, +) / Double(samples.count))) ms on average   vs   1000 ms (the target)"
        )
        print(
            "      \(format(worst / 1_000))x the reference (target ≤ 1x) \(worst <= 1_000 ? "met" : "MISSED")"
        )
        blackHole((watching, other))
    }
}
