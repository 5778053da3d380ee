/// Times a piece of work and reports it per operation.
struct Stopwatch {
    /// How many times each measurement is repeated; the fastest run is reported, since noise
    /// (other processes, page faults) only ever adds time.
    var repetitions: Int

    /// The fastest time per operation of `body`, which performs `operations` operations.
    ///
    /// - Parameters:
    ///   - operations: How many operations one run of `body` performs.
    ///   - prepare: Runs before each repetition, untimed (to build fresh input).
    ///   - body: The timed work.
    func nanosecondsPerOperation(operations: Int, prepare: () -> Void = {}, _ body: () -> Void)
        -> Double
    {
        var best = Double.infinity
        for _ in 0..<repetitions {
            prepare()
            let elapsed = ContinuousClock().measure(body)
            best = min(best, nanoseconds(elapsed) / Double(operations))
        }
        return best
    }

    /// The fastest times per operation of two pieces of work timed in alternation, for figures
    /// of a few nanoseconds that are compared with each other.
    ///
    /// A machine has slow spells (another process, a frequency change) that last longer than one
    /// run of a tight loop. Timing all runs of one piece and then all runs of the other lets a
    /// spell fall on one side only, and the ratio swings with it; alternating many short runs
    /// gives each side the same chances of a quiet moment, and the fastest of each is kept.
    ///
    /// - Parameters:
    ///   - operations: How many operations one run of each body performs.
    ///   - measured: The work being judged.
    ///   - reference: The work it is compared with.
    func alternatingNanosecondsPerOperation(
        operations: Int, measured: () -> Void, reference: () -> Void
    ) -> (measured: Double, reference: Double) {
        var bestMeasured = Double.infinity
        var bestReference = Double.infinity
        for _ in 0..<(repetitions * 4) {
            let referenceTime = ContinuousClock().measure(reference)
            bestReference = min(bestReference, nanoseconds(referenceTime) / Double(operations))
            let measuredTime = ContinuousClock().measure(measured)
            bestMeasured = min(bestMeasured, nanoseconds(measuredTime) / Double(operations))
        }
        return (bestMeasured, bestReference)
    }

    /// The fastest time of one run of asynchronous `body`.
    func asyncNanoseconds(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async -> Void
    ) async -> Double {
        var best = Double.infinity
        for _ in 0..<repetitions {
            let clock = ContinuousClock()
            let start = clock.now
            await body()
            best = min(best, nanoseconds(start.duration(to: clock.now)))
        }
        return best
    }

    /// The fastest times of two pieces of asynchronous work timed in alternation; see
    /// ``alternatingNanosecondsPerOperation(operations:measured:reference:)`` for why.
    func alternatingAsyncNanoseconds(
        isolation: isolated (any Actor)? = #isolation,
        measured: () async -> Void, reference: () async -> Void
    ) async -> (measured: Double, reference: Double) {
        let once = Stopwatch(repetitions: 1)
        var bestMeasured = Double.infinity
        var bestReference = Double.infinity
        for _ in 0..<repetitions {
            bestReference = min(bestReference, await once.asyncNanoseconds(reference))
            bestMeasured = min(bestMeasured, await once.asyncNanoseconds(measured))
        }
        return (bestMeasured, bestReference)
    }

    private func nanoseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
    }
}

/// One printed comparison: a figure, its reference from the same run, and their ratio.
struct Comparison {
    var name: String
    var measured: Double
    var reference: Double
    var referenceName: String
    var unit: String
    /// How the ratio is formed and judged.
    var target: Target
    /// The most the measured figure may be, in `unit`, where a limit of its own is set.
    var limit: Double? = nil

    enum Target {
        /// measured / reference must be at most this.
        case atMost(Double)
        /// reference / measured must be at least this (the measured thing is that much faster).
        case fasterBy(Double)
        /// Printed for contrast only.
        case none
    }

    var ratioText: String {
        switch target {
        case .atMost(let limit):
            let ratio = measured / reference
            return
                "\(format(ratio))x the reference (target ≤ \(format(limit))x) \(ratio <= limit ? "met" : "MISSED")"
        case .fasterBy(let factor):
            let ratio = reference / measured
            return
                "\(format(ratio))x faster (target ≥ \(format(factor))x) \(ratio >= factor ? "met" : "MISSED")"
        case .none:
            return "\(format(measured / reference))x the reference"
        }
    }

    func print() {
        Swift.print("  \(name)")
        Swift.print(
            "      \(format(measured)) \(unit)   vs   \(format(reference)) \(unit) \(referenceName)"
        )
        Swift.print("      \(ratioText)")
        if let limit {
            Swift.print(
                "      target: at most \(format(limit)) \(unit) \(measured <= limit ? "met" : "MISSED")"
            )
        }
    }
}

/// A number with two decimals at most (more for tiny ratios, so they do not print as 0), for the table.
func format(_ value: Double) -> String {
    if value >= 100 { return String(Int(value.rounded())) }
    if value > 0, value < 0.01 { return "\((value * 10_000).rounded() / 10_000)" }
    let hundredths = (value * 100).rounded() / 100
    return "\(hundredths)"
}

/// Keeps the optimizer from deleting work whose result nobody reads.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
