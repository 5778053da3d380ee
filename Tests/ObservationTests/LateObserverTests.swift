import MVCObservation
import Testing

@Suite("An observer hears only what changes after it exists")
struct LateObserverTests {
    @Test("an observer added while a change waits to be delivered does not hear that change")
    func propertyObserverAddedBeforeQueuedDelivery() {
        let property = ObservableProperty(0)
        var late: ObservationToken?
        let heard = Log<ObservedChange<Int>>()
        let first = property.observe { _ in
            guard late == nil else { return }
            property.value = 2
            late = property.observe(options: [.initial, .old, .new]) { heard.append($0) }
        }

        property.value = 1
        property.value = 3

        #expect(
            heard.items == [
                ObservedChange(kind: .initial, oldValue: nil, newValue: 2), .setting(2, 3),
            ])
        withExtendedLifetime((first, late)) {}
    }

    @Test("a subscriber added while an update waits to be delivered does not hear that update")
    func channelSubscriberAddedBeforeQueuedDelivery() {
        struct Note: KeyedUpdate, Equatable {
            let key: String
            let text: String
        }
        let channel = UpdateChannel<Note>()
        var late: [ObservationToken] = []
        let heard = Log<String>()
        let first = channel.subscribeToAll { note in
            guard late.isEmpty else { return }
            channel.publish(Note(key: "a", text: "queued"))
            late.append(channel.subscribe(to: "a") { heard.append("keyed \($0.text)") })
            late.append(channel.subscribeToAll { heard.append("all \($0.text)") })
        }

        channel.publish(Note(key: "a", text: "first"))
        channel.publish(Note(key: "a", text: "later"))

        #expect(heard.items == ["keyed later", "all later"])
        withExtendedLifetime((first, late)) {}
    }

    @Test("a value stream made while a change waits to be delivered yields each value once")
    func streamMadeBeforeQueuedDelivery() async {
        let property = ObservableProperty(0)
        var stream: AsyncStream<Int>?
        let first = property.observe { _ in
            guard stream == nil else { return }
            property.value = 2
            stream = property.values()
        }

        property.value = 1
        property.value = 3
        withExtendedLifetime(first) {}

        var iterator = stream?.makeAsyncIterator()
        #expect(await iterator?.next() == 2)
        #expect(await iterator?.next() == 3)
    }

    @Test(
        "an observer added in a batch after a change hears the batch's change from the value it saw"
    )
    func observerAddedDuringBatch() {
        let counters = Counters()
        let early = Log<ObservedChange<Int>>()
        let late = Log<ObservedChange<Int>>()
        let unchanged = Log<ObservedChange<Int>>()
        var tokens = [counters.first.observe { early.append($0) }]

        counters.changes.batch {
            counters.first.value = 1
            tokens.append(
                counters.first.observe(options: [.initial, .old, .new]) { late.append($0) })
            counters.first.value = 2
            counters.first.value = 3
            tokens.append(counters.first.observe { unchanged.append($0) })
        }

        #expect(early.items == [.setting(0, 3)])
        #expect(
            late.items == [
                ObservedChange(kind: .initial, oldValue: nil, newValue: 1), .setting(1, 3),
            ])
        #expect(unchanged.items.isEmpty)
        withExtendedLifetime(tokens) {}
    }

    @Test("a subscriber added in a batch hears the updates published after it, not before")
    func subscriberAddedDuringBatch() {
        struct Note: KeyedUpdate {
            let key: Int
        }
        let changes = ChangeCoordinator()
        let channel = UpdateChannel<Note>(coordinator: changes)
        let heard = Log<Int>()
        var token: ObservationToken?

        changes.batch {
            channel.publish(Note(key: 1))
            token = channel.subscribeToAll { heard.append($0.key) }
            channel.publish(Note(key: 2))
        }

        #expect(heard.items == [2])
        withExtendedLifetime(token) {}
    }
}

@Suite("Handlers that end late observers while a batch is delivered")
struct LateObserverEndingTests {
    @Test("an observer added in a batch and cancelled by an earlier handler hears nothing")
    func lateObserverCancelledDuringFlush() {
        let counters = Counters()
        let late = Log<ObservedChange<Int>>()
        var lateToken: ObservationToken?
        let early = counters.first.observe { _ in lateToken?.cancel() }

        counters.changes.batch {
            counters.first.value = 1
            lateToken = counters.first.observe { late.append($0) }
            counters.first.value = 2
        }

        #expect(late.items.isEmpty)
        #expect(counters.first.observationCount == 1)
        withExtendedLifetime(early) {}
    }
}
