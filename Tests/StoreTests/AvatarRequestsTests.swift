import Foundation
import MVCModel
import MVCStore
import TestSupport
import Testing

/// The remote loader's decisions, transition by transition: no tasks, no service.
@Suite("The avatar requests state machine")
struct AvatarRequestsTests {
    private let ada = address("ada@example.com")
    private let avatar = Avatar(data: Data("P3 1 1 1 1 1 1".utf8))

    @Test("a first request publishes loading and starts a fetch; a second one joins it")
    func requestAndJoin() {
        var requests = AvatarRequests()

        #expect(
            requests.requested(ada, isCached: false) == [
                .publish(.avatarLoading(ada)), .startFetch(ada, generation: 0),
            ])
        #expect(requests.requested(ada, isCached: false) == [.join(generation: 0)])
        #expect(requests.statistics == RequestStatistics(requests: 1, coalesced: 1))
    }

    @Test("a cached avatar is answered from the cache and says so")
    func cacheHit() {
        var requests = AvatarRequests()

        #expect(requests.requested(ada, isCached: true) == [.publish(.avatarAlreadyLoaded(ada))])
        #expect(requests.statistics.cacheHits == 1)
        #expect(requests.inFlight.isEmpty)
    }

    @Test("a finished fetch stores the avatar; a failure is published and counted")
    func finishing() {
        var requests = AvatarRequests()
        _ = requests.requested(ada, isCached: false)

        #expect(
            requests.fetchFinished(ada, generation: 0, result: .success(avatar)) == [
                .store(avatar, for: ada)
            ])
        _ = requests.requested(ada, isCached: false)
        #expect(
            requests.fetchFinished(ada, generation: 1, result: .failure(.notFound(ada))) == [
                .publish(.avatarFailed(ada, message: "no avatar for ada@example.com"))
            ])
        #expect(requests.statistics.failures == 1)
    }

    @Test("cancel then load starts a fresh fetch, and the cancelled fetch's result is dropped")
    func cancelThenLoad() {
        var requests = AvatarRequests()
        _ = requests.requested(ada, isCached: false)

        #expect(
            requests.cancelRequested(ada) == [
                .cancelFetch(generation: 0), .publish(.avatarCancelled(ada)),
            ])
        #expect(
            requests.requested(ada, isCached: false) == [
                .publish(.avatarLoading(ada)), .startFetch(ada, generation: 1),
            ])
        #expect(requests.fetchFinished(ada, generation: 0, result: .failure(.cancelled)) == [])
        #expect(requests.fetchFinished(ada, generation: 0, result: .success(avatar)) == [])
        #expect(requests.inFlight == [ada: 1])
    }

    @Test("cancelling with nothing in flight does nothing")
    func cancelNothing() {
        var requests = AvatarRequests()

        #expect(requests.cancelRequested(ada) == [])
    }
}

@MainActor
@Suite("Cancelling avatar requests")
struct AvatarCancellationTests {
    private let ada = address("ada@example.com")

    @Test("load after cancel makes a new service call and ends loaded, not cancelled")
    func cancelThenLoadLoads() async {
        let service = GatedAvatarService()
        let data = DataManager()
        let remote = RemoteConnectionManager(dataManager: data, service: service)
        let log = UpdateLog(data.updates)

        remote.requestAvatar(for: ada)
        await service.waitForCalls(1)
        remote.cancelAvatarRequest(for: ada)
        let load = Task { await remote.loadAvatar(for: ada) }
        await service.waitForCalls(2)
        await service.open()
        await load.value

        #expect(data.avatar(for: ada) != nil)
        #expect(
            log.updates == [
                .avatarLoading(ada), .avatarCancelled(ada), .avatarLoading(ada), .avatarLoaded(ada),
            ])
    }
}
