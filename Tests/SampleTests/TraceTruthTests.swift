import Foundation
import Testing

/// Every `--trace` line that names a call names a method that exists in the layer it goes to, so
/// a reader who looks it up finds it.
@Suite("Each traced call names a method of the layer it reaches", .samplesTakeTurns)
struct TraceTruthTests {
    /// Where each layer's methods are declared, from the package's root.
    static let folders: [String: [String]] = [
        "presenter": ["Modules/Presenter"],
        "delegate": ["Modules/Delegates"],
        "store": ["Modules/Store", "Modules/ListStore"],
        "facade": ["Modules/Store/Avatars"],
        "model": ["Modules/Model", "Modules/Elements"],
        "persistence": ["Modules/ListStore", "Adapters"],
    ]

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The names every `func` in the Swift files under `folders` declares.
    static func functionNames(under folders: [String]) throws -> Set<String> {
        var names: Set<String> = []
        for folder in folders {
            let base = root.appending(path: folder)
            let files =
                FileManager.default.enumerator(atPath: base.path)?
                .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
            for file in files {
                let text = try String(contentsOf: base.appending(path: file), encoding: .utf8)
                for match in text.matches(of: /func ([a-zA-Z_][a-zA-Z0-9_]*)/) {
                    names.insert(String(match.output.1))
                }
            }
        }
        return names
    }

    /// The layer a trace line goes to and the method it names, if it names one:
    /// `trace: view → presenter: row 1: load()` gives ("presenter", "load").
    static func call(in line: String) -> (layer: String, method: String)? {
        guard
            let match = line.firstMatch(
                of: /trace: [a-z]+ → ([a-z]+): (?:row [0-9]+: )?(?:[a-zA-Z]+\.)?([a-zA-Z]+)\(/)
        else { return nil }
        return (String(match.output.1), String(match.output.2))
    }

    static let runs: [(sample: String, script: String, store: String?)] = [
        ("switches", "a\nb\nreset\n", nil),
        (
            "avatars", "latency 0\nload 1\nload 1\nreload 1\nload all\nadd bob@example.com Bob\n",
            nil
        ),
        (
            "attractions",
            "add Louvre\nnew\nname Orsay\nsave\nedit 1\nnotes y\nsave\nedit 1\ncancel\nmove 2 1\n"
                + "delete 2\nundo\nredo\n", "attractions.json"
        ),
        ("attractions", "add Louvre\nadd Orsay\nmove 2 1\ndelete 1\nundo\n", "attractions.sqlite"),
    ]

    @Test("every traced call of every sample is a method its layer declares")
    func tracedCallsExist() async throws {
        var checked = 0
        for run in Self.runs {
            let folder = FileManager.default.temporaryDirectory.appending(
                path: "trace-truth-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let arguments =
                ["--trace"]
                + (run.store.map { ["--store", folder.appending(path: $0).path] } ?? [])
            let output = try await SampleRunner.run(run.sample, arguments, script: run.script)
            for line in output.outputLines {
                guard let call = Self.call(in: line), let folders = Self.folders[call.layer] else {
                    continue
                }
                checked += 1
                #expect(
                    try Self.functionNames(under: folders).contains(call.method),
                    "\(run.sample) traces “\(line)”, but no func \(call.method) is in \(folders)")
            }
        }
        #expect(checked > 20, "too few traced calls to check: \(checked)")
    }

    @Test("the check catches a traced call to a method that does not exist")
    func catchesAMissingMethod() throws {
        let call = try #require(Self.call(in: "  trace: view → presenter: row 1: loadTaped()"))
        #expect(call.layer == "presenter")
        #expect(try !Self.functionNames(under: ["Modules/Presenter"]).contains(call.method))
        #expect(try Self.functionNames(under: ["Modules/Presenter"]).contains("loadTapped"))
    }
}
