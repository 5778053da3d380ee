import MVCModel
import MVCObservation
import MVCPresenter
import MVCStore

/// The Avatars figures: keyed delivery to 10,000 avatar presenters against broadcasting to all of
/// them, and service calls made for requests with repeats.
@MainActor
enum AvatarBenchmarks {
    static func run(scale: Int, stopwatch: Stopwatch) async {
        print("\nThe Avatars facade and presenters")
        keyedDelivery(scale: scale, stopwatch: stopwatch)
        await coalescedRequests()
    }

    private static func addresses(_ count: Int) -> [EmailAddress] {
        (0..<count).compactMap { try? EmailAddress("person\($0)@example.com") }
    }

    // MARK: Keyed delivery against broadcasting

    private static func keyedDelivery(scale: Int, stopwatch: Stopwatch) {
        let all = addresses(10_000)
        var random = SplitMix(seed: 1)
        func randomUpdates(among count: Int) -> [ModelUpdate] {
            (0..<(1_000 * scale)).map { index in
                ModelUpdate.avatarFailed(
                    all[Int.random(in: 0..<count, using: &random)], message: "attempt \(index)")
            }
        }
        let updates = randomUpdates(among: all.count)
        // The data manager publishes; the facade, which screens get, only subscribes.
        func makeManager() -> (DataManager, ModelManager) {
            let data = DataManager()
            let remote = RemoteConnectionManager(
                dataManager: data, service: SimulatedAvatarService())
            return (data, ModelManager(dataManager: data, remoteConnectionManager: remote))
        }
        // The same updates, to the first 1,000 addresses, with 1,000 presenters and with 10,000:
        // what differs is only how many presenters listen to other keys.
        let updatesToFirstThousand = randomUpdates(among: 1_000)

        func keyedTime(presenters count: Int, updates: [ModelUpdate]) -> Double {
            let (data, manager) = makeManager()
            let presenters = all.prefix(count).map {
                AvatarPresenter(address: $0, manager: manager)
            }
            let time = stopwatch.nanosecondsPerOperation(operations: updates.count) {
                for update in updates { data.propagate(update) }
            }
            blackHole(presenters)
            return time
        }
        let keyedMany = keyedTime(presenters: 10_000, updates: updates)
        let isolatedFew = keyedTime(presenters: 1_000, updates: updatesToFirstThousand)
        let isolatedMany = keyedTime(presenters: 10_000, updates: updatesToFirstThousand)

        let (data, manager) = makeManager()
        let filtering = all.map { BroadcastAvatarPresenter(address: $0, manager: manager) }
        let broadcastUpdates = Array(updates.prefix(200))
        let broadcast = stopwatch.nanosecondsPerOperation(operations: broadcastUpdates.count) {
            for update in broadcastUpdates { data.propagate(update) }
        }
        blackHole(filtering)

        Comparison(
            name:
                "10,000 updates to random addresses, 10,000 avatar presenters, each subscribed to its own key",
            measured: keyedMany / 1_000, reference: broadcast / 1_000,
            referenceName: "(broadcast to all 10,000, each filtering: the post's way)",
            unit: "µs/update", target: .none
        ).print()
        Comparison(
            name:
                "keyed updates to 1,000 addresses while 10,000 presenters listen (9,000 to other keys)",
            measured: isolatedMany / 1_000, reference: isolatedFew / 1_000,
            referenceName: "(the same updates with 1,000 presenters)", unit: "µs/update",
            target: .atMost(2)
        ).print()
    }

    // MARK: Coalescing

    private static func coalescedRequests() async {
        let unique = addresses(1_000)
        let requests = unique + unique.prefix(500)
        let service = SimulatedAvatarService(latency: .milliseconds(20))
        let manager = ModelManager(service: service)
        await withTaskGroup(of: Void.self) { group in
            for address in requests {
                group.addTask { await manager.loadAvatar(for: address) }
            }
        }
        let calls = await service.callCount
        let statistics = manager.statistics
        print("  requests for 1,000 addresses, 500 of them repeated concurrently")
        print("      \(calls) service calls   vs   \(requests.count) requests received")
        print(
            "      \(format(Double(calls) / Double(requests.count)))x the requests (coalesced \(statistics.coalesced), cache hits \(statistics.cacheHits)); target: one call per address \(calls == unique.count ? "met" : "MISSED")"
        )
    }
}

/// The post's way, for reference: every presenter hears every update and filters by address.
@MainActor
private final class BroadcastAvatarPresenter {
    private let address: EmailAddress
    private(set) var status = "not requested"
    private var token: ObservationToken?

    init(address: EmailAddress, manager: ModelManager) {
        self.address = address
        token = manager.updates.subscribeToAll { [weak self] update in
            guard let self, update.key == .avatar(self.address) else { return }
            if case .avatarFailed(_, let message) = update { self.status = message }
        }
    }
}
