public import MVCModel
public import MVCTracing

/// Loads missing avatars through an ``AvatarService`` and hands them to the data manager.
///
/// - A cached address is never requested again (a cache hit, published as
///   `ModelUpdate.avatarAlreadyLoaded`).
/// - Concurrent requests for one address share one service call (coalesced).
/// - A failure is reported once, as `ModelUpdate.avatarFailed`, and
///   ``reloadAvatar(for:)`` retries.
/// - A cancelled request ends at once, as `ModelUpdate.avatarCancelled`; a request made after it
///   starts a fresh call, and the cancelled call's result is dropped.
///
/// The decisions are ``AvatarRequests``' (a pure state machine); this class runs the fetches off
/// the main actor and hands their results back to it.
@MainActor
public final class RemoteConnectionManager: RemoteConnectionManagerOperations {
    private let dataManager: any DataManagerMaintenance
    private let service: any AvatarService
    private let tracer: HopTracer
    private var requests = AvatarRequests()
    private var fetches: [Int: Task<Void, Never>] = [:]

    /// What the manager did so far.
    public var statistics: RequestStatistics { requests.statistics }

    /// How many fetches are running (a test waits for none before it ends).
    public var runningFetchCount: Int { fetches.count }

    /// Returns once no fetch is running: each one running has finished and published its result.
    public func fetchesFinished() async {
        while let fetch = fetches.values.first {
            await fetch.value
        }
    }

    /// Creates a manager that stores what `service` returns in `dataManager`.
    ///
    /// - Parameters:
    ///   - dataManager: Where avatars are cached and updates published.
    ///   - service: Where avatars come from.
    ///   - tracer: Told each call to the service.
    public init(
        dataManager: any DataManagerMaintenance, service: any AvatarService,
        tracer: HopTracer = .disabled
    ) {
        self.dataManager = dataManager
        self.service = service
        self.tracer = tracer
    }

    /// Starts loading in the background.
    public func requestAvatar(for address: EmailAddress) {
        _ = run(requests.requested(address, isCached: dataManager.avatar(for: address) != nil))
    }

    /// Loads and waits.
    public func loadAvatar(for address: EmailAddress) async {
        let fetch = run(
            requests.requested(address, isCached: dataManager.avatar(for: address) != nil))
        await fetch?.value
    }

    /// Forgets the cached avatar and loads again; a request in flight is joined, not repeated.
    public func reloadAvatar(for address: EmailAddress) async {
        if requests.inFlight[address] == nil { dataManager.forgetAvatar(for: address) }
        await loadAvatar(for: address)
    }

    /// Cancels the request in flight for `address`, if any.
    public func cancelAvatarRequest(for address: EmailAddress) {
        _ = run(requests.cancelRequested(address))
    }

    /// Runs effects; returns the fetch a request started or joined, to wait for.
    private func run(_ effects: [AvatarRequests.Effect]) -> Task<Void, Never>? {
        var fetch: Task<Void, Never>?
        for effect in effects {
            switch effect {
            case .startFetch(let address, let generation):
                fetch = startFetch(address, generation: generation)
            case .cancelFetch(let generation):
                fetches.removeValue(forKey: generation)?.cancel()
            case .join(let generation):
                fetch = fetches[generation]
            case .store(let avatar, let address):
                dataManager.saveAvatar(avatar, for: address)
            case .publish(let update):
                dataManager.propagate(update)
            }
        }
        return fetch
    }

    private func startFetch(_ address: EmailAddress, generation: Int) -> Task<Void, Never> {
        tracer.record(from: .store, to: .service, "avatar(for: \(address))")
        let service = self.service
        let fetch = Task {
            let result = await Self.fetch(address, from: service)
            self.fetches[generation] = nil
            _ = self.run(
                self.requests.fetchFinished(address, generation: generation, result: result))
        }
        fetches[generation] = fetch
        return fetch
    }

    /// Calls the service off the main actor (an avatar is decoded where it is made, so a large
    /// picture is decoded there too, not on the main actor).
    @concurrent
    private nonisolated static func fetch(_ address: EmailAddress, from service: any AvatarService)
        async -> Result<Avatar, AvatarServiceError>
    {
        do throws(AvatarServiceError) {
            return .success(try await service.avatar(for: address))
        } catch {
            return .failure(error)
        }
    }
}
