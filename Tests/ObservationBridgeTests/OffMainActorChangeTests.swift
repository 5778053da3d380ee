import MVCObservation
import MVCObservationBridge
import Observation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An `@Observable` object that other threads may change: its storage has a lock, so it is
/// `Sendable`, and it tells Apple's registrar about each access and change as the macro would.
///
/// Made `holding` a value, its writer is held up between announcing that change and storing it,
/// as a preempted thread would be.
final class SharedCounter: Observable, Sendable {
    private let registrar = ObservationRegistrar()
    private let storage = Mutex(0)
    private let heldValue: Int?
    private let microseconds: UInt32

    init(holding heldValue: Int? = nil, forMicroseconds microseconds: UInt32 = 0) {
        self.heldValue = heldValue
        self.microseconds = microseconds
    }

    var value: Int {
        get {
            registrar.access(self, keyPath: \.value)
            return storage.withLock { $0 }
        }
        set {
            registrar.withMutation(of: self, keyPath: \.value) {
                if newValue == heldValue { usleep(microseconds) }
                storage.withLock { $0 = newValue }
            }
        }
    }
}

@MainActor
@Suite("Changes made off the main actor")
struct OffMainActorChangeTests {
    @Test("a property changed many times on another thread ends on its last value every time")
    func neverMissesTheLastValue() async {
        for round in 0..<100 {
            let counter = SharedCounter()
            let log = Log<Int>()
            let token = counter.observe(\.value, options: [.new]) { log.changes.append($0) }
            let last = 1 + round % 7
            await Task.detached {
                for value in 1...last { counter.value = value }
            }.value

            // The handler runs on a later turn of the main actor, up to a quarter of a second
            // later for a change that landed after its notice: wait for it, by the clock.
            let deadline = ContinuousClock.now + .seconds(2)
            while log.changes.last?.newValue != last, ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(1))
            }

            // Apple's `Observations` (Swift 6.3) re-reads on willSet; the follower looks again for
            // a quarter of a second, but a writer thread held up longer can still leave the last
            // value unseen (the documented limit; issue 16 stays open for it). Every other
            // expectation here holds always.
            withKnownIssue("the willSet race of Observations in Swift 6.3", isIntermittent: true) {
                #expect(log.changes.last?.newValue == last, "round \(round)")
            }
            #expect(
                log.changes.map(\.newValue)
                    == log.changes.map(\.newValue).sorted { ($0 ?? 0) < ($1 ?? 0) })
            withExtendedLifetime(token) {}
        }
    }

    @Test(
        "a change announced while the follower reads another, and stored a moment later, is delivered"
    )
    func changeThatLandsLate() async {
        for round in 0..<20 {
            // The value 2 is announced, then stored 20 ms later; the follower, woken by the 1,
            // reads in between, sees 1, and hears no more from Observations.
            let counter = SharedCounter(holding: 2, forMicroseconds: 20_000)
            let log = Log<Int>()
            let token = counter.observe(\.value, options: [.new]) { log.changes.append($0) }
            let writer = Task.detached {
                counter.value = 1
                counter.value = 2
            }
            await writer.value
            let deadline = ContinuousClock.now + .seconds(2)
            while log.changes.last?.newValue != 2, ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(1))
            }
            #expect(log.changes.last?.newValue == 2, "round \(round): \(log.changes)")
            withExtendedLifetime(token) {}
        }
    }

    @Test("a token released on another thread ends the observation")
    func tokenReleasedOnAnotherThread() async {
        let counter = SharedCounter()
        let log = Log<Int>()
        nonisolated(unsafe) var token: ObservationToken? = counter.observe(\.value) {
            log.changes.append($0)
        }
        await Task.detached { token = nil }.value

        counter.value = 1
        await settle()

        #expect(log.changes.isEmpty)
        #expect(token == nil)
    }
}
