import MVCObservation
import MVCObservationBridge
import Observation
import Testing

/// A class written with Apple's macro, observed with the project's handler API.
@Observable
@MainActor
final class Lamp {
    var isOn = false
    var brightness = 0
}

/// Records what a handler is given.
@MainActor
final class Log<Value: Sendable> {
    var changes: [ObservedChange<Value>] = []
}

/// Lets the main actor run what the observation scheduled.
@MainActor
func settle() async {
    for _ in 0..<20 { await Task.yield() }
}

@MainActor
@Suite("An @Observable class observed property by property")
struct PropertyHandlerTests {
    @Test("each property has its own handler with typed old and new values")
    func onePropertyOneHandler() async {
        let lamp = Lamp()
        let switched = Log<Bool>()
        let dimmed = Log<Int>()
        let tokens = [
            lamp.observe(\.isOn) { switched.changes.append($0) },
            lamp.observe(\.brightness) { dimmed.changes.append($0) },
        ]

        lamp.isOn = true
        await settle()
        lamp.brightness = 40
        await settle()

        #expect(
            switched.changes == [ObservedChange(kind: .setting, oldValue: false, newValue: true)])
        #expect(dimmed.changes == [ObservedChange(kind: .setting, oldValue: 0, newValue: 40)])
        withExtendedLifetime(tokens) {}
    }

    @Test("the options decide which values are delivered, and initial delivers at once")
    func options() async {
        let lamp = Lamp()
        let log = Log<Int>()
        let token = lamp.observe(\.brightness, options: [.initial, .new]) { log.changes.append($0) }
        #expect(log.changes == [ObservedChange(kind: .initial, oldValue: nil, newValue: 0)])

        lamp.brightness = 10
        await settle()

        #expect(log.changes.last == ObservedChange(kind: .setting, oldValue: nil, newValue: 10))
        withExtendedLifetime(token) {}
    }

    @Test("assignments in one turn are one change; ending where they started is none")
    func coalescing() async {
        let lamp = Lamp()
        let log = Log<Int>()
        let token = lamp.observe(\.brightness) { log.changes.append($0) }

        lamp.brightness = 1
        lamp.brightness = 2
        lamp.brightness = 3
        await settle()
        lamp.brightness = 4
        lamp.brightness = 3
        await settle()

        #expect(log.changes == [ObservedChange(kind: .setting, oldValue: 0, newValue: 3)])
        withExtendedLifetime(token) {}
    }

    @Test("a cancelled or released token delivers nothing more")
    func tokens() async {
        let lamp = Lamp()
        let log = Log<Bool>()
        let cancelled = lamp.observe(\.isOn) { log.changes.append($0) }
        var released: ObservationToken? = lamp.observe(\.isOn) { log.changes.append($0) }

        cancelled.cancel()
        released = nil
        lamp.isOn = true
        await settle()

        #expect(log.changes.isEmpty)
        #expect(cancelled.isCancelled)
        _ = released
    }

    @Test("observing holds the object weakly: it goes away, and the observation with it")
    func weakObject() async {
        weak var weakLamp: Lamp?
        let log = Log<Bool>()
        var token: ObservationToken?
        do {
            let lamp = Lamp()
            weakLamp = lamp
            token = lamp.observe(\.isOn) { log.changes.append($0) }
            lamp.isOn = true
        }
        await settle()

        #expect(weakLamp == nil)
        #expect(log.changes.isEmpty)
        withExtendedLifetime(token) {}
    }

    @Test(
        "the observation ends with its object: the handler and its captures are let go while the token is still held"
    )
    func handlerLetGoWithTheObject() async {
        final class Held {}
        weak var weakHeld: Held?
        var token: ObservationToken?
        do {
            let lamp = Lamp()
            let held = Held()
            weakHeld = held
            token = lamp.observe(\.isOn) { _ in _ = held }
            lamp.isOn = true
            await settle()
        }
        let deadline = ContinuousClock.now + .seconds(2)
        while weakHeld != nil, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        #expect(weakHeld == nil, "the handler outlived the object it observed")
        withExtendedLifetime(token) {}
    }
}

@MainActor
@Suite("Handlers that change what is being delivered")
struct ReentrantBridgeTests {
    @Test(
        "a handler that corrects the value it hears gets the correction delivered next, then stops")
    func handlerCorrectsTheValue() async {
        let lamp = Lamp()
        let log = Log<Int>()
        let token = lamp.observe(\.brightness) { change in
            log.changes.append(change)
            if let new = change.newValue, new > 10 { lamp.brightness = 10 }
        }

        lamp.brightness = 50
        await settle()

        #expect(
            log.changes == [
                ObservedChange(kind: .setting, oldValue: 0, newValue: 50),
                ObservedChange(kind: .setting, oldValue: 50, newValue: 10),
            ])
        #expect(lamp.brightness == 10)
        withExtendedLifetime(token) {}
    }

    @Test("a handler that cancels its own token mid-delivery hears nothing more")
    func handlerCancelsItself() async {
        let lamp = Lamp()
        let log = Log<Bool>()
        var token: ObservationToken?
        token = lamp.observe(\.isOn) { change in
            log.changes.append(change)
            token?.cancel()
        }

        lamp.isOn = true
        await settle()
        lamp.isOn = false
        await settle()

        #expect(log.changes.count == 1)
    }
}
