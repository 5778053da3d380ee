import MVCObservation
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
private func releaseElsewhere(_ owner: sending TokenOwner) {
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
        for _ in 0..<2_000 where property.observationCount > 0 { await Task.yield() }
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
        for _ in 0..<2_000
        where channel.subscriberToAllCount > 0
            || (0..<4).contains(where: { channel.subscriberCount(for: $0) > 0 })
        {
            await Task.yield()
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
