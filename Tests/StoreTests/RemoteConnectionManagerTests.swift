import Foundation
import MVCModel
import MVCObservation
import MVCStore
import TestSupport
import Testing

extension Ideas {
    @MainActor
    @Suite("Loading avatars")
    struct RemoteConnectionManagerTests {
        private let ada = address("ada@example.com")
        private let grace = address("grace@example.com")

        private func makeManagers(
            _ service: any AvatarService
        ) -> (data: DataManager, remote: RemoteConnectionManager) {
            let data = DataManager()
            return (data, RemoteConnectionManager(dataManager: data, service: service))
        }

        @Test("a loaded avatar is cached, and a cached address is never requested again")
        func cacheHits() async {
            let service = GatedAvatarService(isOpen: true)
            let (data, remote) = makeManagers(service)

            await remote.loadAvatar(for: ada)
            await remote.loadAvatar(for: ada)
            remote.requestAvatar(for: ada)
            await remote.loadAvatar(for: ada)

            #expect(await service.callCount == 1)
            #expect(data.avatar(for: ada) != nil)
            #expect(
                remote.statistics
                    == RequestStatistics(requests: 1, coalesced: 0, cacheHits: 3, failures: 0))
        }

        @Test("100 concurrent requests for one address make exactly one service call")
        func coalescing() async {
            let service = GatedAvatarService()
            let (data, remote) = makeManagers(service)
            let log = UpdateLog(data.updates, key: .avatar(ada))

            let loads = (0..<100).map { _ in Task { await remote.loadAvatar(for: ada) } }
            await service.waitForCalls(1)
            while remote.statistics.coalesced < 99 { await Task.yield() }
            await service.open()
            for load in loads { await load.value }

            #expect(await service.callCount == 1)
            #expect(
                remote.statistics
                    == RequestStatistics(requests: 1, coalesced: 99, cacheHits: 0, failures: 0))
            #expect(log.updates == [.avatarLoading(ada), .avatarLoaded(ada)])
        }

        @Test("a failure is reported once, counted, and a retry can succeed")
        func failureAndRetry() async {
            let service = GatedAvatarService(isOpen: true)
            await service.setFailure(.httpStatus(500, url: "http://x/ada"), for: ada)
            let (data, remote) = makeManagers(service)
            let log = UpdateLog(data.updates, key: .avatar(ada))

            await remote.loadAvatar(for: ada)
            await service.setFailure(nil, for: ada)
            await remote.reloadAvatar(for: ada)

            #expect(
                log.updates == [
                    .avatarLoading(ada),
                    .avatarFailed(ada, message: "the server answered 500 for http://x/ada"),
                    .avatarLoading(ada),
                    .avatarLoaded(ada),
                ]
            )
            #expect(remote.statistics.failures == 1)
            #expect(data.avatar(for: ada) != nil)
        }

        @Test("reloading a cached avatar fetches it again")
        func reloadCached() async {
            let service = GatedAvatarService(isOpen: true)
            let (_, remote) = makeManagers(service)

            await remote.loadAvatar(for: ada)
            await remote.reloadAvatar(for: ada)

            #expect(await service.callCount == 2)
        }

        @Test("cancelling a request stops delivery: nothing is stored or reported as loaded")
        func cancellation() async {
            let service = GatedAvatarService()
            let (data, remote) = makeManagers(service)
            let log = UpdateLog(data.updates, key: .avatar(ada))

            let load = Task { await remote.loadAvatar(for: ada) }
            await service.waitForCalls(1)
            remote.cancelAvatarRequest(for: ada)
            await service.open()
            await load.value

            #expect(log.updates == [.avatarLoading(ada), .avatarCancelled(ada)])
            #expect(data.avatar(for: ada) == nil)
            #expect(remote.statistics.failures == 0)
        }

        @Test("requests for different addresses do not coalesce")
        func differentAddresses() async {
            let service = GatedAvatarService(isOpen: true)
            let (_, remote) = makeManagers(service)

            await remote.loadAvatar(for: ada)
            await remote.loadAvatar(for: grace)

            #expect(await service.callCount == 2)
        }
    }
}

extension Ideas {
    @MainActor
    @Suite("The data manager")
    struct DataManagerTests {
        @Test("an update for one address reaches only that address's subscribers")
        func keyedRouting() {
            let data = DataManager()
            let adaLog = UpdateLog(data.updates, key: .avatar(address("ada@example.com")))
            let graceLog = UpdateLog(data.updates, key: .avatar(address("grace@example.com")))

            data.saveAvatar(Avatar(data: Data()), for: address("grace@example.com"))

            #expect(adaLog.updates.isEmpty)
            #expect(graceLog.updates == [.avatarLoaded(address("grace@example.com"))])
        }

        @Test("adding a contact publishes a contacts update, and a duplicate address is refused")
        func contacts() throws {
            let data = DataManager()
            let log = UpdateLog(data.updates, key: .contacts)
            let ada = Contact(name: "Ada", address: address("ada@example.com"))

            try data.addContact(ada)

            #expect(throws: DataManagerError.duplicateContact(ada.address)) {
                try data.addContact(ada)
            }
            #expect(data.contacts == [ada])
            #expect(log.updates == [.contactsChanged])
        }
    }
}
