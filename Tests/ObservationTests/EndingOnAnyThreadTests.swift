import Foundation
import MVCObservation
import Synchronization
import Testing

/// A main-actor object that holds tokens, as a presenter does.
///
/// Its `deinit` is not isolated: it
/// runs on whatever thread lets the last reference go, and its tokens end there.
@MainActor
private final class TokenOwner {
    var tokens: [ObservationToken] = []
    let heard = Counter()

    init(_ property: ObservableProperty<Int>, observations: Int) {
        for _ in 0..<observations {
            tokens.append(property.observe { [heard] _ in heard.count += 1 })
        }
    }

    init(_ channel: UpdateChannel<Tick>, observations: Int) {
        for index in 0..<observations {
            if index.isMultiple(of: 2) {
                tokens.append(channel.subscribe(to: index % 4) { [heard] _ in heard.count += 1 })
            } else {
                tokens.append(channel.subscribeToAll { [heard] _ in heard.count += 1 })
            }
        }
    }
}

/// Counts handler calls; touched only on the main actor, by handlers.
private final class Counter: @unchecked Sendable {
    // @unchecked: only handlers touch `count`, and handlers run on the main actor, where the
    // observed property lives; the owner's deinit on another thread never reads or writes it.
    var count = 0
}

private struct Tick: KeyedUpdate {
    let key: Int
}

/// Sends an object to another thread and lets the last reference to it go there.
private func releaseElsewhere(_ owner: sending some AnyObject) {
    Task.detached { withExtendedLifetime(owner) {} }
}

@Suite("Ending observations on any thread")
@MainActor
struct EndingOnAnyThreadTests {
    @Test("token owners released on other threads while the main actor delivers end cleanly")
    func ownersReleasedElsewhereWhileDelivering() async {
        let property = ObservableProperty(0)
        for round in 0..<150 {
            releaseElsewhere(TokenOwner(property, observations: 32))
            for change in 0..<50 { property.value = round * 1_000 + change }
            await Task.yield()
        }
        // Every owner is gone by now or soon; once the last has gone, nothing is left observing.
        // The last owners go on detached tasks, which a loaded machine may run late: wait for
        // them by the clock, not by a count of yields.
        let deadline = ContinuousClock.now + .seconds(30)
        while property.observationCount > 0 && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(1))
        }
        #expect(property.observationCount == 0)
    }

    @Test(
        "channel subscribers released on other threads while the main actor publishes end cleanly")
    func subscribersReleasedElsewhereWhilePublishing() async {
        let channel = UpdateChannel<Tick>()
        for _ in 0..<150 {
            releaseElsewhere(TokenOwner(channel, observations: 32))
            for key in 0..<50 { channel.publish(Tick(key: key % 4)) }
            await Task.yield()
        }
        // The last owners go on detached tasks, which a loaded machine may run late: waited for
        // by the clock, as above.
        let deadline = ContinuousClock.now + .seconds(30)
        while channel.subscriberToAllCount > 0
            || (0..<4).contains(where: { channel.subscriberCount(for: $0) > 0 }),
            ContinuousClock.now < deadline
        {
            try? await Task.sleep(for: .milliseconds(1))
        }
        #expect(channel.subscriberToAllCount == 0)
        #expect((0..<4).allSatisfy { channel.subscriberCount(for: $0) == 0 })
    }

    @Test(
        "a token ended on another thread is not called again, and its handler goes at the next change"
    )
    func endedElsewhereIsNotCalledAgain() async {
        final class Captured: @unchecked Sendable {}
        let property = ObservableProperty(0)
        var captured: Captured? = Captured()
        weak let weakCaptured = captured
        let heard = Counter()
        var token: ObservationToken? = captured.map { object in
            property.observe { [heard] _ in
                _ = object
                heard.count += 1
            }
        }
        captured = nil
        property.value = 1

        nonisolated(unsafe) let ending = token
        token = nil
        await Task.detached { ending?.cancel() }.value
        property.value = 2

        #expect(heard.count == 1)
        #expect(weakCaptured == nil)
        #expect(property.observationCount == 0)
    }
}

/// An observer whose handler captures it weakly, as `ObservationToken` says a handler must when
/// its owner may go away on another thread: a call that finds it gone does nothing.
@MainActor
private final class WeakSelfOwner {
    var tokens: [ObservationToken] = []
    private var changes = 0
    let calls: Counter
    let callsAfterItWent: Counter

    init(_ property: ObservableProperty<Int>, calls: Counter, callsAfterItWent: Counter) {
        self.calls = calls
        self.callsAfterItWent = callsAfterItWent
        tokens.append(
            property.observe { [weak self, calls, callsAfterItWent] _ in
                calls.count += 1
                guard let self else {
                    callsAfterItWent.count += 1
                    return
                }
                self.changes += 1
            })
    }
}

@Suite("What a handler must do when its owner ends on another thread")
@MainActor
struct WeakHandlerTests {
    @Test(
        "a handler that captures its owner weakly, whose owner's deinit ends the token on another thread during deliveries, never reaches a freed owner"
    )
    func weakSelfHandlerIsSafe() async {
        let property = ObservableProperty(0)
        let calls = Counter()
        let callsAfterItWent = Counter()
        for round in 0..<150 {
            releaseElsewhere(
                WeakSelfOwner(property, calls: calls, callsAfterItWent: callsAfterItWent))
            for change in 0..<50 { property.value = round * 1_000 + change }
            await Task.yield()
        }
        let deadline = ContinuousClock.now + .seconds(30)
        while property.observationCount > 0 && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(1))
        }
        // Every call either found its owner or found it gone, and none came after the end.
        #expect(calls.count > 0)
        #expect(callsAfterItWent.count <= calls.count)
        #expect(property.observationCount == 0)
        property.value = -1
        let settled = calls.count
        property.value = -2
        #expect(calls.count == settled)
    }
}

/// A global actor of the test's own: its jobs run on whichever thread of the pool is free, so
/// the owner of a property isolated to it has no thread of its own.
@globalActor
private actor Hopping {
    static let shared = Hopping()
}

/// An object isolated to ``Hopping`` that holds tokens; its `deinit` runs wherever the last
/// reference goes, possibly on the very thread the actor last ran on.
@Hopping
private final class HoppingOwner {
    var tokens: [ObservationToken] = []

    init(_ property: ObservableProperty<Int>, observations: Int) {
        for _ in 0..<observations { tokens.append(property.observe { _ in }) }
    }
}

@Suite("Ending observations while the owner hops threads")
struct EndingWhileOwnerHopsTests {
    @Test(
        "an owner on an actor with no thread of its own delivers while tokens end on other threads"
    )
    @Hopping
    func ownerOnHoppingActor() async {
        let property = ObservableProperty(0)
        for round in 0..<150 {
            let owner = HoppingOwner(property, observations: 32)
            Task.detached { withExtendedLifetime(owner) {} }
            for change in 0..<50 { property.value = round * 1_000 + change }
            // Let the actor's next job run on another thread now and then.
            await Task.detached {}.value
        }
        // The last owners go on detached tasks, which a loaded machine may run late: wait for
        // them by the clock, not by a count of yields.
        let deadline = ContinuousClock.now + .seconds(30)
        while property.observationCount > 0 && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(1))
        }
        #expect(property.observationCount == 0)
    }
}

/// Says that a task has started.
private final class StartFlag: Sendable {
    let value = Atomic<Bool>(false)
}

/// Carries a value to another thread the way `sending` would: the sender never touches it again.
private struct Handover<Value>: @unchecked Sendable {
    let value: Value
}

extension EndingWhileOwnerHopsTests {
    @Test(
        "tokens ended on the thread that made them, after the property moved to another, are safe")
    func propertyMovedToAnotherThread() async {
        // Threads of their own, not the cooperative pool: one side waits for the other by spinning.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                for round in 0..<40 {
                    let property = ObservableProperty(0)
                    var tokens = (0..<256).map { _ in property.observe { _ in } }
                    // The property goes to a thread of its own, as a model handed to another
                    // actor does; this thread keeps only the tokens, which may end anywhere.
                    let handover = Handover(value: property)
                    let started = StartFlag()
                    let finished = StartFlag()
                    Thread.detachNewThread {
                        let moved = handover.value
                        started.value.store(true, ordering: .releasing)
                        for change in 0..<5_000 { moved.value = round * 10_000 + change }
                        finished.value.store(true, ordering: .releasing)
                    }
                    while !started.value.load(ordering: .acquiring) {}
                    // End them while the other thread delivers.
                    tokens.removeAll()
                    while !finished.value.load(ordering: .acquiring) {}
                    #expect(handover.value.observationCount == 0)
                }
                done.resume()
            }
        }
    }
}

/// Something a handler captures, to see when the handler is let go.
private final class Captured: Sendable {}

extension EndingWhileOwnerHopsTests {
    @Test("observations ended on two threads at once let their handlers go without another use")
    @MainActor
    func twoEndsAtOnceWhileIdle() async {
        for _ in 0..<300 {
            let property = ObservableProperty(0)
            weak var first: Captured?
            weak var second: Captured?
            var tokens: [ObservationToken] = []
            do {
                let one = Captured()
                let two = Captured()
                first = one
                second = two
                tokens.append(property.observe { _ in _ = one })
                tokens.append(property.observe { _ in _ = two })
            }
            let handover = Handover(value: tokens)
            tokens.removeAll()
            // Each token ends on a task of its own, at about the same moment.
            async let endOne: Void = Task.detached { handover.value[0].cancel() }.value
            async let endTwo: Void = Task.detached { handover.value[1].cancel() }.value
            _ = await (endOne, endTwo)
            // Nothing touches the property from here: each handler must already be gone.
            #expect(first == nil && second == nil)
            withExtendedLifetime(property) {}
        }
    }
}
