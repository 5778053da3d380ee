// The benchmarks: each figure printed beside its reference, measured in the same run, as a ratio.
// Run with `swift run -c release benchmarks`; a debug build's figures mean nothing.

import Foundation

let usage = """
    USAGE: benchmarks [--quick] [--only SECTION]... [--help]

    Measures MVCLayers against hand-written and platform references, in one run, and prints each
    figure with its reference and their ratio. Build in release mode:

        swift run -c release benchmarks

    OPTIONS:
      --quick          run a tenth of the iterations once each (a smoke test; figures are noisy)
      --only SECTION   run only SECTION (repeatable): \(BenchmarkSection.allCases.map(\.rawValue).joined(separator: ", "))
      -h, --help       show this help

    The server section measures the PostgreSQL adapter on the server MVCLAYERS_POSTGRES names
    (a postgres:// URL; Scripts/postgres-server.sh starts one), and is skipped without one.
    The database section runs this program again as the other process it measures
    (--open-child PATH, --bare-read-child PATH, --edit-child PATH); those are not for use by
    hand.
    """

/// The groups of figures, in the order they print.
enum BenchmarkSection: String, CaseIterable {
    case observation, bridge, attractions, avatars, sharing, database, server, network
}

/// What the command line asked for, or the reason it cannot be run.
func parseArguments(_ arguments: [String]) -> Result<
    (quick: Bool, sections: [BenchmarkSection]), BenchmarkUsageError
> {
    var quick = false
    var only: [BenchmarkSection] = []
    var index = 0
    while index < arguments.count {
        let argument = arguments[index]
        switch argument {
        case "--quick":
            quick = true
        case "--only":
            index += 1
            guard index < arguments.count else { return .failure(.init("--only needs a section")) }
            guard let section = BenchmarkSection(rawValue: arguments[index]) else {
                return .failure(.init("unknown section '\(arguments[index])'"))
            }
            only.append(section)
        default:
            return .failure(.init("unknown argument '\(argument)'"))
        }
        index += 1
    }
    return .success((quick, only.isEmpty ? BenchmarkSection.allCases : only))
}

/// A command line the benchmarks cannot run.
struct BenchmarkUsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.count == 2, arguments[0] == "--open-child" {
    await DatabaseBenchmarks.openChild(arguments[1])
} else if arguments.count == 2, arguments[0] == "--bare-read-child" {
    print(BareSQLite.readAll(URL(fileURLWithPath: arguments[1])))
} else if arguments.count == 2, arguments[0] == "--edit-child" {
    await EditChild.run(arguments[1])
} else if arguments.contains("--help") || arguments.contains("-h") {
    print(usage)
} else {
    switch parseArguments(arguments) {
    case .failure(let error):
        print("error: \(error.message)\n\(usage)")
        exit(64)
    case .success(let options):
        let isQuick = options.quick
        #if DEBUG
            print(
                "warning: this is a debug build; run `swift run -c release benchmarks` for real figures"
            )
        #endif
        let stopwatch = Stopwatch(repetitions: isQuick ? 1 : 5)
        let scale = isQuick ? 1 : 10
        for section in options.sections {
            switch section {
            case .observation: ObservationBenchmarks.run(scale: scale, stopwatch: stopwatch)
            case .bridge:
                BridgeBenchmarks.run(scale: scale, stopwatch: stopwatch)
                await BridgeBenchmarks.runAsync(scale: scale, stopwatch: stopwatch)
            case .attractions: await AttractionBenchmarks.run(scale: scale, stopwatch: stopwatch)
            case .avatars: await AvatarBenchmarks.run(scale: scale, stopwatch: stopwatch)
            case .sharing: await SharingBenchmarks.run(stopwatch: stopwatch)
            case .database: await DatabaseBenchmarks.run(quick: isQuick)
            case .server: await PostgresBenchmarks.run(quick: isQuick)
            case .network: await NetworkBenchmarks.run(quick: isQuick)
            }
        }
    }
}
