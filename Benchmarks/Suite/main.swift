// The benchmarks: each figure printed beside its reference, measured in the same run, as a ratio.
// Run with `swift run -c release benchmarks`; a debug build's figures mean nothing.

let usage = """
    USAGE: benchmarks [--quick] [--help]

    Measures MVCLayers against hand-written and platform references, in one run, and prints each
    figure with its reference and their ratio. Build in release mode:

        swift run -c release benchmarks

    OPTIONS:
      --quick   run a tenth of the iterations once each (a smoke test; figures are noisy)
      --help    show this help
    """

let arguments = Set(CommandLine.arguments.dropFirst())
if arguments.contains("--help") {
    print(usage)
} else if let unknown = arguments.subtracting(["--quick"]).first {
    print("error: unknown argument '\(unknown)'\n\(usage)")
} else {
    let isQuick = arguments.contains("--quick")
    #if DEBUG
        print(
            "warning: this is a debug build; run `swift run -c release benchmarks` for real figures"
        )
    #endif
    let stopwatch = Stopwatch(repetitions: isQuick ? 1 : 5)
    ObservationBenchmarks.run(scale: isQuick ? 1 : 10, stopwatch: stopwatch)
    await AttractionBenchmarks.run(scale: isQuick ? 1 : 10, stopwatch: stopwatch)
    await AvatarBenchmarks.run(scale: isQuick ? 1 : 10, stopwatch: stopwatch)
    await SharingBenchmarks.run(stopwatch: stopwatch)
}
