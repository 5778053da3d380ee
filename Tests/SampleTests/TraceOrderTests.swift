import Foundation
import Testing

/// `--trace` reads cause, then effect: each command's hops, in order, before what it shows.
@Suite("Each sample's trace reads cause, then effect", .samplesTakeTurns)
struct TraceOrderTests {
    @Test("switches: each press's hops run from the view down and back, before its screen")
    func switches() async throws {
        let run = try await SampleRunner.run("switches", ["--trace"], script: "a\nb\nreset\n")
        try TraceOrder.check(run.outputLines, commands: 3)
    }

    @Test(
        "avatars: a load's hops come before its screen, and a cached load's note after its hops")
    func avatars() async throws {
        let run = try await SampleRunner.run(
            "avatars", ["--trace"],
            script: "latency 0\nload 1\nload 1\nadd bob@example.com Bob\n")
        try TraceOrder.check(run.outputLines, commands: 3)
        let note = try #require(run.outputLines.lastIndex { $0.hasPrefix("row 1: the avatar") })
        #expect(run.outputLines[note - 1].hasPrefix("  trace: observation → presenter"))
    }

    @Test(
        "attractions, with a database: every write's hops, the commit included, come before the next screen",
        arguments: ["json", "sqlite"])
    func attractions(format: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "trace-order-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await SampleRunner.run(
            "attractions",
            ["--trace", "--store", folder.appending(path: "trace.\(format)").path],
            script: "add Louvre\nadd Orsay\nmove 2 1\nnew\nname Cluny\nsave\n")
        try TraceOrder.check(run.outputLines, commands: 6)
    }
}

/// Checks a scripted run's output: its trace lines fall into blocks, one per command (the blocks
/// between two screens), and in each, every hop leaves a layer the command already reached
/// (starting at the view), and no presenter traces one change of its view-state twice.
enum TraceOrder {
    struct Broken: Error, CustomStringConvertible {
        var description: String
    }

    static func check(_ lines: [String], commands: Int) throws {
        var blocks: [[(from: String, to: String, line: String)]] = []
        var current: [(from: String, to: String, line: String)] = []
        for line in lines {
            guard line.hasPrefix("  trace: ") else {
                if !current.isEmpty { blocks.append(current) }
                current = []
                continue
            }
            let hop = line.dropFirst("  trace: ".count)
            let layers = hop.prefix { $0 != ":" }.components(separatedBy: " → ")
            guard layers.count == 2 else { throw Broken(description: "not a hop: \(line)") }
            current.append((layers[0], layers[1], line))
        }
        // A document's last save is written when the input ends: its own block, caused by the end.
        if !current.isEmpty { blocks.append(current) }
        let commandBlocks = blocks.filter { $0.first?.from == "view" }
        guard commandBlocks.count == commands else {
            throw Broken(
                description:
                    "\(commands) commands, but \(commandBlocks.count) blocks of hops start at the view: \(blocks.map { $0.map(\.line) })"
            )
        }
        for block in blocks.dropLast() where block.first?.from != "view" {
            throw Broken(
                description:
                    "hops that no command caused, between two screens: \(block.map(\.line))")
        }
        for block in blocks {
            var reached: Set<String> = [block.first?.from ?? "view"]
            for hop in block {
                guard reached.contains(hop.from) else {
                    throw Broken(
                        description:
                            "\(hop.line) leaves a layer its command had not reached: \(block.map(\.line))"
                    )
                }
                reached.insert(hop.to)
            }
            for (earlier, later) in zip(block, block.dropFirst())
            where earlier.to == "view" && earlier.line == later.line {
                throw Broken(description: "a presenter traced one change twice: \(later.line)")
            }
        }
    }
}
