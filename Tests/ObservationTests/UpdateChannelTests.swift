import MVCObservation
import Testing

/// An update about one named thing, as the Avatars sample has about one address.
private enum NameUpdate: KeyedUpdate, Equatable {
    case loaded(String)
    case failed(String)

    var key: String {
        switch self {
        case .loaded(let name), .failed(let name): name
        }
    }
}

@Suite("Keyed update channels")
struct UpdateChannelTests {
    @Test(
        "the only subscriber to a key that ends its subscription mid-delivery keeps what it captured until it returns"
    )
    func onlySubscriberEndsItsSubscription() {
        final class Captured {
            var heard: [NameUpdate] = []
        }
        let channel = UpdateChannel<NameUpdate>()
        var captured: Captured? = Captured()
        weak let weakCaptured = captured
        var token: ObservationToken?
        token = captured.map { object in
            channel.subscribe(to: "ada") { update in
                // The key's list empties and leaves the channel's table here.
                token = nil
                object.heard.append(update)
                #expect(object.heard == [update])
            }
        }
        captured = nil

        channel.publish(.loaded("ada"))
        channel.publish(.failed("ada"))

        #expect(token == nil)
        #expect(channel.subscriberCount(for: "ada") == 0)
        #expect(weakCaptured == nil)
    }

    @Test("an update reaches the subscribers of its key and no others")
    func keyIsolation() {
        let channel = UpdateChannel<NameUpdate>()
        let ada = Log<NameUpdate>()
        let grace = Log<NameUpdate>()
        let tokens = [
            channel.subscribe(to: "ada") { ada.append($0) },
            channel.subscribe(to: "grace") { grace.append($0) },
        ]

        channel.publish(.loaded("ada"))
        channel.publish(.failed("ada"))

        #expect(ada.items == [.loaded("ada"), .failed("ada")])
        #expect(grace.items.isEmpty)
        withExtendedLifetime(tokens) {}
    }

    @Test("a subscriber to all keys hears every update, after the key's own subscribers")
    func subscribeToAll() {
        let channel = UpdateChannel<NameUpdate>()
        let log = Log<String>()
        let tokens = [
            channel.subscribeToAll { log.append("all: \($0.key)") },
            channel.subscribe(to: "ada") { log.append("ada: \($0.key)") },
        ]

        channel.publish(.loaded("ada"))
        channel.publish(.loaded("grace"))

        #expect(log.items == ["ada: ada", "all: ada", "all: grace"])
        withExtendedLifetime(tokens) {}
    }

    @Test("a cancelled subscription hears nothing more, and an empty key is forgotten")
    func cancelSubscription() {
        let channel = UpdateChannel<NameUpdate>()
        let log = Log<NameUpdate>()
        let token = channel.subscribe(to: "ada") { log.append($0) }
        let all = channel.subscribeToAll { log.append($0) }
        #expect(channel.subscriberCount(for: "ada") == 1)

        token.cancel()
        all.cancel()
        channel.publish(.loaded("ada"))

        #expect(log.items.isEmpty)
        #expect(channel.subscriberCount(for: "ada") == 0)
        #expect(channel.subscriberToAllCount == 0)
    }

    @Test("an update published by a subscriber is delivered after the current one")
    func publishDuringDelivery() {
        let channel = UpdateChannel<NameUpdate>()
        let log = Log<String>()
        let tokens = [
            channel.subscribe(to: "ada") { update in
                log.append("ada heard \(update)")
                if case .loaded = update { channel.publish(.loaded("grace")) }
            },
            channel.subscribeToAll { log.append("all heard \($0)") },
        ]

        channel.publish(.loaded("ada"))

        #expect(
            log.items == [
                "ada heard loaded(\"ada\")", "all heard loaded(\"ada\")",
                "all heard loaded(\"grace\")",
            ])
        withExtendedLifetime(tokens) {}
    }

    @Test("updates published in a batch are delivered in order when it ends")
    func publishInBatch() {
        let coordinator = ChangeCoordinator()
        let channel = UpdateChannel<NameUpdate>(coordinator: coordinator)
        let log = Log<String>()
        let token = channel.subscribeToAll { log.append("\($0)") }

        coordinator.batch {
            channel.publish(.loaded("ada"))
            channel.publish(.failed("grace"))
            log.append("end of batch body")
        }

        #expect(log.items == ["end of batch body", "loaded(\"ada\")", "failed(\"grace\")"])
        withExtendedLifetime(token) {}
    }

    @Test("a token does not keep the channel alive")
    func tokenDoesNotRetainChannel() {
        var channel: UpdateChannel<NameUpdate>? = UpdateChannel()
        weak let weakChannel = channel
        let token = channel?.subscribe(to: "ada") { _ in }

        channel = nil

        #expect(weakChannel == nil)
        #expect(token?.isCancelled == true)
    }
}
