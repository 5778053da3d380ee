import Foundation
import MVCModel
import MVCObservation
import MVCStore
import TestSupport
import Testing

/// A data manager that records which operation was called.
@MainActor
private final class SpyDataManager: DataManagerOperations {
    var calls: [String] = []
    let channel = UpdateChannel<ModelUpdate>()
    var updates: UpdateSubscriptions<ModelUpdate> { channel.subscriptions }
    var contacts: [Contact] {
        calls.append("contacts")
        return []
    }
    func addContact(_ contact: Contact) throws(DataManagerError) { calls.append("addContact") }
    func avatar(for address: EmailAddress) -> Avatar? {
        calls.append("avatar(for:)")
        return nil
    }
    func saveAvatar(_ avatar: Avatar, for address: EmailAddress) { calls.append("saveAvatar") }
    func forgetAvatar(for address: EmailAddress) { calls.append("forgetAvatar") }
    func propagate(_ update: ModelUpdate) { calls.append("propagate") }
}

/// A remote connection manager that records which operation was called.
@MainActor
private final class SpyRemoteConnectionManager: RemoteConnectionManagerOperations, FetchTracking {
    var calls: [String] = []
    func requestAvatar(for address: EmailAddress) { calls.append("requestAvatar") }
    func loadAvatar(for address: EmailAddress) async { calls.append("loadAvatar") }
    func reloadAvatar(for address: EmailAddress) async { calls.append("reloadAvatar") }
    func cancelAvatarRequest(for address: EmailAddress) { calls.append("cancelAvatarRequest") }
    var statistics: RequestStatistics {
        calls.append("statistics")
        return RequestStatistics(requests: 7)
    }
    var runningFetchCount: Int {
        calls.append("runningFetchCount")
        return 2
    }
    func fetchesFinished() async { calls.append("fetchesFinished") }
}

extension Ideas {
    @MainActor
    @Suite("The ModelManager facade")
    struct ModelManagerTests {
        @Test(
            "every operation of every sub-manager protocol is reachable through the facade and lands on its sub-manager"
        )
        func forwarding() async throws {
            let data = SpyDataManager()
            let remote = SpyRemoteConnectionManager()
            let facade: any ModelManaging = ModelManager(
                dataManager: data, remoteConnectionManager: remote)
            let ada = address("ada@example.com")

            _ = facade.contacts
            try facade.addContact(Contact(name: "Ada", address: ada))
            _ = facade.avatar(for: ada)
            // The facade hands out the data manager's feed: a subscription through it hears the data
            // manager's updates.
            var heard: [ModelUpdate] = []
            let token = facade.updates.subscribeToAll { heard.append($0) }
            data.channel.publish(.contactsChanged)
            #expect(heard == [.contactsChanged])
            token.cancel()
            facade.requestAvatar(for: ada)
            await facade.loadAvatar(for: ada)
            await facade.reloadAvatar(for: ada)
            facade.cancelAvatarRequest(for: ada)
            #expect(facade.statistics.requests == 7)
            #expect(facade.runningFetchCount == 2)
            await facade.fetchesFinished()

            #expect(
                data.calls == [
                    "contacts", "addContact", "avatar(for:)",
                ])
            #expect(
                remote.calls == [
                    "requestAvatar", "loadAvatar", "reloadAvatar", "cancelAvatarRequest",
                    "statistics",
                    "runningFetchCount", "fetchesFinished",
                ]
            )
        }

        @Test("the usual facade loads an avatar end to end and publishes it under its address")
        func endToEnd() async {
            let ada = address("ada@example.com")
            let manager = ModelManager(
                contacts: [Contact(name: "Ada", address: ada)], service: SimulatedAvatarService())
            let log = UpdateLog(manager.updates, key: .avatar(ada))

            await manager.loadAvatar(for: ada)

            #expect(log.updates == [.avatarLoading(ada), .avatarLoaded(ada)])
            #expect(manager.avatar(for: ada)?.format == .netpbm)
            #expect(manager.statistics.requests == 1)
        }

        @Test("a released facade and its managers are deallocated")
        func noLeaks() async {
            weak var weakManager: ModelManager?
            do {
                let manager = ModelManager(service: SimulatedAvatarService())
                await manager.loadAvatar(for: address("ada@example.com"))
                weakManager = manager
            }
            #expect(weakManager == nil)
        }
    }
}

@Suite("The simulated avatar service")
struct SimulatedAvatarServiceTests {
    @Test("each address gets its own picture, the same on every call")
    func deterministicPictures() async throws {
        let service = SimulatedAvatarService()

        let first = try await service.avatar(for: address("ada@example.com"))
        let again = try await service.avatar(for: address("ada@example.com"))
        let other = try await service.avatar(for: address("grace@example.com"))

        #expect(first == again)
        #expect(first != other)
        #expect(try Picture(netpbm: first.data).width == 8)
    }

    @Test("a failure rate of 1 always fails and 0 never does")
    func failureRate() async throws {
        let service = SimulatedAvatarService(failureRate: 1)
        let ada = address("ada@example.com")

        await #expect(
            throws: AvatarServiceError.transport(
                "the simulated service failed on purpose (failure rate)",
                url: "simulated:ada@example.com")
        ) {
            try await service.avatar(for: ada)
        }
        await service.setFailureRate(0)
        _ = try await service.avatar(for: ada)
        #expect(await service.callCount == 2)
    }

    @Test("the latency is waited out on the injected clock, and a zero latency does not wait")
    func latency() async throws {
        let clock = TestClock()
        let service = SimulatedAvatarService(latency: .milliseconds(250), clock: clock)
        let request = Task { try await service.avatar(for: address("ada@example.com")) }

        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(249))
        #expect(clock.sleeperCount == 1, "the request ended before its latency")
        clock.advance(by: .milliseconds(1))
        _ = try await request.value

        await service.setLatency(.zero)
        _ = try await service.avatar(for: address("ada@example.com"))
        #expect(clock.sleeperCount == 0)
        #expect(clock.now.offset == .milliseconds(250))
    }
}
