import MVCModel
import MVCObservation
import MVCObservationBridge
import MVCPresenter
import Observation

/// A class written with Apple's macro, for the bridge's figures.
@Observable
@MainActor
private final class BenchLamp {
    var brightness = 0
}

/// A hand-written @Observable screen model: the state a SwiftUI view would read, set by hand.
@Observable
@MainActor
private final class HandWrittenScreenModel {
    var state: SwitchesViewState
    init(_ state: SwitchesViewState) { self.state = state }
}

/// Counts deliveries on the main actor.
@MainActor
private final class Deliveries {
    var count = 0
    var hasStarted = false
}

@MainActor
enum BridgeBenchmarks {
    static func run(scale: Int, stopwatch: Stopwatch) {
        print("MVCObservationBridge: Apple's Observation, both ways")
        viewState(scale: scale, stopwatch: stopwatch)
    }

    /// Async figures: the bridge's per-property handler against Apple's `Observations` sequence.
    static func runAsync(scale: Int, stopwatch: Stopwatch) async {
        await propertyHandler(scale: scale, stopwatch: stopwatch)
    }

    /// An intent that changes the view-state, seen by an Observation tracker: through the bridge
    /// (presenter → ObservableViewState) against an `@Observable` class whose state is set by
    /// hand.
    private static func viewState(scale: Int, stopwatch: Stopwatch) {
        // Short runs alternated with the reference's (see `alternatingNanosecondsPerOperation`).
        let changes = 2_000 * scale
        let presenter = SwitchesPresenter(model: SwitchesModel())
        let bridged = presenter.observable()
        let bridgedSeen = Deliveries()
        let plainPresenter = SwitchesPresenter(model: SwitchesModel())
        let handWritten = HandWrittenScreenModel(plainPresenter.viewState)
        let token = plainPresenter.observeViewState { handWritten.state = $0 }
        let handSeen = Deliveries()
        /// Taps button A `changes` times, each time tracking the screen model's state first, as a
        /// SwiftUI body would, and reading it after.
        func tapping(
            _ presenter: SwitchesPresenter, track: () -> Void, isOn: () -> Bool, seen: Deliveries
        ) {
            for _ in 0..<changes {
                withObservationTracking(track) {}
                presenter.buttonTapped("A")
                seen.count += isOn() ? 1 : 0
            }
        }
        let (bridgedTime, handTime) = stopwatch.alternatingNanosecondsPerOperation(
            operations: changes,
            measured: {
                tapping(
                    presenter, track: { _ = bridged.state },
                    isOn: { bridged.state.buttons[0].isOn },
                    seen: bridgedSeen)
            },
            reference: {
                tapping(
                    plainPresenter, track: { _ = handWritten.state },
                    isOn: { handWritten.state.buttons[0].isOn }, seen: handSeen)
            }
        )
        blackHole((bridgedSeen.count, handSeen.count, token))
        Comparison(
            name: "an intent seen through the view-state bridge (ObservableViewState)",
            measured: bridgedTime, reference: handTime,
            referenceName: "(an @Observable class whose state is set by hand)",
            unit: "ns/change", target: .atMost(1.5)
        ).print()
    }

    /// A property change of an `@Observable` class delivered to a handler with old and new
    /// values, against reading the same changes from Apple's `Observations` sequence.
    private static func propertyHandler(scale: Int, stopwatch: Stopwatch) async {
        let changes = 2_000 * scale
        let lamp = BenchLamp()
        let seen = Deliveries()
        let token = lamp.observe(\.brightness) { _ in seen.count += 1 }
        let start = ContinuousClock.now
        for value in 1...changes {
            lamp.brightness = value
            while seen.count < value { await Task.yield() }
        }
        let bridgeTime = Double((ContinuousClock.now - start) / .nanoseconds(1)) / Double(changes)
        token.cancel()

        let other = BenchLamp()
        let values = Observations { other.brightness }
        let consumed = Deliveries()
        let consumer = Task { @MainActor in
            for await value in values {
                consumed.hasStarted = true
                consumed.count = value
                if value == changes { return }
            }
        }
        // The sequence's first value is the current one; start once it has arrived.
        while !consumed.hasStarted { await Task.yield() }
        let directStart = ContinuousClock.now
        for value in 1...changes {
            other.brightness = value
            while consumed.count < value { await Task.yield() }
        }
        let directTime =
            Double((ContinuousClock.now - directStart) / .nanoseconds(1)) / Double(changes)
        await consumer.value
        Comparison(
            name: "an @Observable property change handed to a handler with old and new values",
            measured: bridgeTime, reference: directTime,
            referenceName: "(Apple's Observations sequence, the same changes)",
            unit: "ns/change", target: .atMost(2)
        ).print()
    }
}
