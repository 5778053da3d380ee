import AttractionsStorage
import Foundation
import MVCDocumentStore
import MVCElements
import MVCListStore
import MVCModel
import MVCObservation
import MVCPresenter
import MVCStore

/// The Attractions figures: the store against a plain array, saving and loading against bare
/// JSON coding, writes caused by a burst of edits, and the list presenter's update of one row.
@MainActor
enum AttractionBenchmarks {
    static func run(scale: Int, stopwatch: Stopwatch) async {
        print("\nMVCListStore (a ListStore of attractions) and the Attractions presenters")
        storeOperations(scale: scale, stopwatch: stopwatch)
        await saveAndLoad(stopwatch: stopwatch)
        await burstOfEdits()
        listPresenterUpdate(scale: scale, stopwatch: stopwatch)
    }

    private static func attractions(_ count: Int) -> [Attraction] {
        (0..<count).map {
            Attraction(
                name: "attraction \($0)", notes: $0.isMultiple(of: 3) ? "worth a detour" : "")
        }
    }

    // MARK: Store operations on 100,000 attractions

    private static func storeOperations(scale: Int, stopwatch: Stopwatch) {
        let initial = attractions(100_000)
        let operations = 500 * scale
        var random = SplitMix(seed: 42)
        let positions = (0..<operations).map { _ in
            (Int.random(in: 0..<90_000, using: &random), Int.random(in: 0..<90_000, using: &random))
        }
        let newcomers = attractions(operations)

        for operation in ListOperation.allCases {
            // Each run starts from a list of its own, as one opened from a file is: one shared
            // with `initial` would be copied whole by the run's first edit, inside the timing.
            var store = AttractionStore(initial)
            let storeTime = stopwatch.nanosecondsPerOperation(
                operations: operations,
                prepare: { store = AttractionStore(initial.map { $0 }) },
                { operation.perform(on: store, positions: positions, newcomers: newcomers) }
            )
            var array = initial
            let arrayTime = stopwatch.nanosecondsPerOperation(
                operations: operations,
                prepare: { array = initial.map { $0 } },
                { operation.perform(on: &array, positions: positions, newcomers: newcomers) }
            )
            blackHole((store, array))
            Comparison(
                name:
                    "\(operation.rawValue) in a list of 100,000, through the store (undo, change events included)",
                measured: storeTime / 1_000, reference: arrayTime / 1_000,
                referenceName: "(a plain array)",
                unit: "µs/op", target: .atMost(3),
                limit: operation == .replace ? 1.5 : nil
            ).print()
        }
    }

    /// One kind of list edit, done the same way through the store and on a plain array.
    private enum ListOperation: String, CaseIterable {
        case add
        case replace = "replace (found by id)"
        case move
        case delete

        @MainActor
        func perform(on store: AttractionStore, positions: [(Int, Int)], newcomers: [Attraction]) {
            for (index, (position, other)) in positions.enumerated() {
                switch self {
                case .add:
                    try? store.add(newcomers[index], at: position)
                case .replace:
                    var edited = store.elements[position]
                    edited.notes = "edited \(index)"
                    try? store.replace(edited.id, with: edited)
                case .move:
                    try? store.move(from: position, to: other)
                case .delete:
                    _ = try? store.delete(at: position)
                }
            }
        }

        func perform(on array: inout [Attraction], positions: [(Int, Int)], newcomers: [Attraction])
        {
            for (index, (position, other)) in positions.enumerated() {
                switch self {
                case .add:
                    array.insert(newcomers[index], at: position)
                case .replace:
                    var edited = array[position]
                    edited.notes = "edited \(index)"
                    if let found = array.firstIndex(where: { $0.id == edited.id }) {
                        array[found] = edited
                    }
                case .move:
                    array.insert(array.remove(at: position), at: other)
                case .delete:
                    array.remove(at: position)
                }
            }
        }
    }

    // MARK: Saving and loading

    private static func saveAndLoad(stopwatch: Stopwatch) async {
        let document = attractions(100_000)
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "mvclayers-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = DocumentFile(
            url: folder.appending(path: "attractions.json"), format: .attractions)
        let bare = folder.appending(path: "bare.json")

        let (saveTime, bareSaveTime) = await stopwatch.alternatingAsyncNanoseconds(
            measured: { _ = try? await file.overwrite(with: document) },
            reference: { try? JSONEncoder().encode(document).write(to: bare, options: .atomic) })
        Comparison(
            name: "saving 100,000 attractions (versioned, atomic and durable)",
            measured: saveTime / 1e6, reference: bareSaveTime / 1e6,
            referenceName: "(JSONEncoder and an atomic Data.write)", unit: "ms",
            target: .atMost(1.5)
        ).print()

        let (loadTime, bareLoadTime) = await stopwatch.alternatingAsyncNanoseconds(
            measured: { blackHole(try? await file.load()) },
            reference: {
                blackHole(
                    try? JSONDecoder().decode([Attraction].self, from: Data(contentsOf: bare)))
            })
        Comparison(
            name: "loading 100,000 attractions (version and fields checked)",
            measured: loadTime / 1e6, reference: bareLoadTime / 1e6,
            referenceName: "(reading the file and JSONDecoder)", unit: "ms",
            target: .atMost(1.5)
        ).print()
    }

    // MARK: A burst of edits

    private static func burstOfEdits() async {
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "mvclayers-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        guard
            let (store, saver) = try? await AttractionStore.open(
                at: folder.appending(path: "a.json"))
        else {
            print("  a burst of 1,000 edits: cannot open a store in \(folder.path)")
            return
        }
        for index in 0..<1_000 { try? store.add(Attraction(name: "attraction \(index)")) }
        try? await Task.sleep(for: saver.delay * 2)
        try? await saver.flush()
        print("  a burst of 1,000 edits, then the autosave delay and a flush")
        print(
            "      \(saver.writeCount) file writes   vs   1,000 edits (one write each, without coalescing)"
        )
        print(
            "      \(format(Double(saver.writeCount) / 1_000))x the reference (target ≤ 2 writes) \(saver.writeCount <= 2 ? "met" : "MISSED")"
        )
    }

    // MARK: One edit in a long list

    private static func listPresenterUpdate(scale: Int, stopwatch: Stopwatch) {
        var perEdit: [Int: Double] = [:]
        for rows in [10_000, 100_000] {
            let initial = attractions(rows)
            // Enough edits that one run lasts milliseconds, not microseconds (short runs made the
            // flat-growth ratio swing with page faults); the rebuilding reference costs a hundred
            // milliseconds an edit at 100,000 rows, so it makes fewer.
            let edits = 200 * scale
            let rebuildingEdits = 2 * scale
            var random = SplitMix(seed: 7)
            let positions = (0..<edits).map { _ in Int.random(in: 0..<rows, using: &random) }

            func editEach(_ store: AttractionStore, count: Int) {
                for (round, position) in positions.prefix(count).enumerated() {
                    var edited = store.elements[position]
                    edited.notes = "edit \(round)"
                    try? store.replace(edited.id, with: edited)
                }
            }

            var keepAlive: [AnyObject] = []
            let incremental = stopwatch.nanosecondsPerOperation(
                operations: edits,
                prepare: {
                    let store = AttractionStore(initial)
                    keepAlive = [store, AttractionListPresenter(store: store)]
                },
                {
                    if let store = keepAlive.first as? AttractionStore {
                        editEach(store, count: edits)
                    }
                }
            )
            let rebuilding = stopwatch.nanosecondsPerOperation(
                operations: rebuildingEdits,
                prepare: {
                    let store = AttractionStore(initial)
                    keepAlive = [store, RebuildingListPresenter(store: store)]
                },
                {
                    if let store = keepAlive.first as? AttractionStore {
                        editEach(store, count: rebuildingEdits)
                    }
                }
            )
            blackHole(keepAlive)
            perEdit[rows] = incremental / 1_000
            Comparison(
                name:
                    "one edit in the list presenter, \(rows == 10_000 ? "10,000" : "100,000") rows (store work included)",
                measured: incremental / 1_000, reference: rebuilding / 1_000,
                referenceName: "(rebuilding the whole view-state on each change)", unit: "µs/edit",
                target: .none, limit: rows == 10_000 ? 5 : nil
            ).print()
        }
        if let small = perEdit[10_000], let large = perEdit[100_000] {
            Comparison(
                name: "one edit in the list presenter: 100,000 rows against 10,000 (flat growth)",
                measured: large, reference: small, referenceName: "(10,000 rows)",
                unit: "µs/edit", target: .atMost(1.5)
            ).print()
        }
    }
}

/// The reference for the list presenter: on every change, rebuild every row.
@MainActor
private final class RebuildingListPresenter {
    private(set) var viewState: AttractionListViewState
    private var token: AnyObject?

    init(store: AttractionStore) {
        viewState = Self.build(store)
        token = store.changes.subscribeToAll { [weak self, unowned store] _ in
            self?.viewState = Self.build(store)
        }
    }

    private static func build(_ store: AttractionStore) -> AttractionListViewState {
        AttractionListViewState(
            rows: store.elements.map {
                .init(id: $0.id.description, name: $0.name, parts: $0.listedParts)
            },
            undo: .init(
                title: store.undoLabel.map { "Undo \($0)" } ?? "Undo",
                isEnabled: store.undoLabel != nil),
            redo: .init(
                title: store.redoLabel.map { "Redo \($0)" } ?? "Redo",
                isEnabled: store.redoLabel != nil)
        )
    }
}

/// A seeded generator, so both sides of a comparison do the same operations.
struct SplitMix: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
