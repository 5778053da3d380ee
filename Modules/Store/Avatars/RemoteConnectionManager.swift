public import MVCModel
public import MVCTracing

/// The operations of the remote connection manager: loading avatars, retrying, cancelling.
///
/// ``ModelManager`` offers them by conforming to ``RemoteConnectionManagerForwarding``.
@MainActor
public protocol RemoteConnectionManagerOperations: AnyObject {
    /// Starts loading the avatar of `address` in the background, unless it is cached or on its way.
    func requestAvatar(for address: EmailAddress)
    /// Loads the avatar of `address` unless it is cached, joining a request already in flight,
    /// and returns when it is loaded, has failed, or was cancelled.
    func loadAvatar(for address: EmailAddress) async
    /// Forgets the cached avatar of `address` and loads it again (a retry after a failure).
    func reloadAvatar(for address: EmailAddress) async
    /// Cancels the request in flight for `address`: nothing is stored or reported as loaded.
    func cancelAvatarRequest(for address: EmailAddress)
    /// What the manager did so far.
    var statistics: RequestStatistics { get }
}

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
    /// The fetches running, by generation.
    var fetches: [Int: Task<Void, Never>] = [:]

    /// What the manager did so far.
    public var statistics: RequestStatistics { requests.statistics }

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

/// Offers the remote connection manager's operations by forwarding each to
/// ``remoteConnectionManager``; written once, checked by the compiler.
@MainActor
public protocol RemoteConnectionManagerForwarding: RemoteConnectionManagerOperations {
    /// The remote connection manager the operations go to.
    var remoteConnectionManager: any RemoteConnectionManagerOperations { get }
    /// Told of each operation the facade hands on, as a hop from the facade to the store layer.
    var forwardingTracer: HopTracer { get }
}

extension RemoteConnectionManagerForwarding {
    /// Forwarded to the remote connection manager.
    public func requestAvatar(for address: EmailAddress) {
        forwardingTracer.record(
            from: .facade, to: .store, "remoteConnectionManager.requestAvatar(for: \(address))")
        remoteConnectionManager.requestAvatar(for: address)
    }
    /// Forwarded to the remote connection manager.
    public func loadAvatar(for address: EmailAddress) async {
        forwardingTracer.record(
            from: .facade, to: .store, "remoteConnectionManager.loadAvatar(for: \(address))")
        await remoteConnectionManager.loadAvatar(for: address)
    }
    /// Forwarded to the remote connection manager.
    public func reloadAvatar(for address: EmailAddress) async {
        forwardingTracer.record(
            from: .facade, to: .store, "remoteConnectionManager.reloadAvatar(for: \(address))")
        await remoteConnectionManager.reloadAvatar(for: address)
    }
    /// Forwarded to the remote connection manager.
    public func cancelAvatarRequest(for address: EmailAddress) {
        forwardingTracer.record(
            from: .facade, to: .store,
            "remoteConnectionManager.cancelAvatarRequest(for: \(address))")
        remoteConnectionManager.cancelAvatarRequest(for: address)
    }
    /// Forwarded to the remote connection manager.
    public var statistics: RequestStatistics { remoteConnectionManager.statistics }
}

/// The decisions of a ``RemoteConnectionManager``, as a pure state machine: which requests are in
/// flight, what a new request, a cancellation or a finished fetch leads to, and the statistics.
///
/// Each request in flight has a *generation*, a number never used twice. A cancellation ends the
/// request at once (the screen hears "cancelled" right away) and forgets its generation, so a
/// later request for the same address starts a fresh fetch, and the cancelled fetch's eventual
/// result, carrying the old generation, is recognized as stale and dropped.
public struct AvatarRequests: Equatable, Sendable {
    /// An effect the manager runs.
    public enum Effect: Equatable, Sendable {
        /// Call the service for this address; ``fetchFinished(_:generation:result:)`` follows.
        case startFetch(EmailAddress, generation: Int)
        /// Cancel the fetch of this generation; its result will be stale.
        case cancelFetch(generation: Int)
        /// Wait for the fetch of this generation, which another request started.
        case join(generation: Int)
        /// Keep this avatar (which publishes that it loaded).
        case store(Avatar, for: EmailAddress)
        /// Publish this update.
        case publish(ModelUpdate)
    }

    /// The generation of the fetch in flight for each address.
    public private(set) var inFlight: [EmailAddress: Int] = [:]
    /// What the manager did so far.
    public private(set) var statistics = RequestStatistics()
    private var nextGeneration = 0

    /// Creates the state of a manager with nothing in flight.
    public init() {}

    /// A screen asked for the avatar of `address`.
    ///
    /// - Parameters:
    ///   - address: Whose avatar.
    ///   - isCached: Whether the data manager already holds it.
    public mutating func requested(_ address: EmailAddress, isCached: Bool) -> [Effect] {
        if isCached {
            statistics.cacheHits += 1
            return [.publish(.avatarAlreadyLoaded(address))]
        }
        if let generation = inFlight[address] {
            statistics.coalesced += 1
            return [.join(generation: generation)]
        }
        statistics.requests += 1
        let generation = nextGeneration
        nextGeneration += 1
        inFlight[address] = generation
        return [.publish(.avatarLoading(address)), .startFetch(address, generation: generation)]
    }

    /// A screen cancelled the request for `address`.
    public mutating func cancelRequested(_ address: EmailAddress) -> [Effect] {
        guard let generation = inFlight.removeValue(forKey: address) else { return [] }
        return [.cancelFetch(generation: generation), .publish(.avatarCancelled(address))]
    }

    /// A fetch ended.
    public mutating func fetchFinished(
        _ address: EmailAddress, generation: Int, result: Result<Avatar, AvatarServiceError>
    ) -> [Effect] {
        // A cancelled fetch, or one replaced since: its request already ended.
        guard inFlight[address] == generation else { return [] }
        inFlight[address] = nil
        switch result {
        case .success(let avatar):
            return [.store(avatar, for: address)]
        case .failure(.cancelled):
            return [.publish(.avatarCancelled(address))]
        case .failure(let error):
            statistics.failures += 1
            return [.publish(.avatarFailed(address, message: error.description))]
        }
    }
}
