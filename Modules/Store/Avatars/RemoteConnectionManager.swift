public import MVCModel
public import MVCObservation
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

/// Offers the remote connection manager's operations by forwarding each to
/// ``remoteConnectionManager``; written once, checked by the compiler.
@MainActor
public protocol RemoteConnectionManagerForwarding: RemoteConnectionManagerOperations {
    /// The remote connection manager the operations go to.
    var remoteConnectionManager: any RemoteConnectionManagerOperations { get }
}

extension RemoteConnectionManagerForwarding {
    /// Forwarded to the remote connection manager.
    public func requestAvatar(for address: EmailAddress) {
        remoteConnectionManager.requestAvatar(for: address)
    }
    /// Forwarded to the remote connection manager.
    public func loadAvatar(for address: EmailAddress) async {
        await remoteConnectionManager.loadAvatar(for: address)
    }
    /// Forwarded to the remote connection manager.
    public func reloadAvatar(for address: EmailAddress) async {
        await remoteConnectionManager.reloadAvatar(for: address)
    }
    /// Forwarded to the remote connection manager.
    public func cancelAvatarRequest(for address: EmailAddress) {
        remoteConnectionManager.cancelAvatarRequest(for: address)
    }
    /// Forwarded to the remote connection manager.
    public var statistics: RequestStatistics { remoteConnectionManager.statistics }
}

/// Loads missing avatars through an ``AvatarService`` and hands them to the data manager.
///
/// - A cached address is never requested again (a cache hit).
/// - Concurrent requests for one address share one service call (coalesced).
/// - A failure is reported once, as `ModelUpdate.avatarFailed`, and
///   ``reloadAvatar(for:)`` retries.
/// - A cancelled request stores and reports nothing but `ModelUpdate.avatarCancelled`.
///
/// The service runs off the main actor; results come back to it.
@MainActor
public final class RemoteConnectionManager: RemoteConnectionManagerOperations {
    private let dataManager: any DataManagerOperations
    private let service: any AvatarService
    private let tracer: HopTracer
    private var inFlight: [EmailAddress: Task<Void, Never>] = [:]
    /// What the manager did so far.
    public private(set) var statistics = RequestStatistics()

    /// Creates a manager that stores what `service` returns in `dataManager`.
    ///
    /// - Parameters:
    ///   - dataManager: Where avatars are cached and updates published.
    ///   - service: Where avatars come from.
    ///   - tracer: Told each call to the service.
    public init(
        dataManager: any DataManagerOperations, service: any AvatarService,
        tracer: HopTracer = .disabled
    ) {
        self.dataManager = dataManager
        self.service = service
        self.tracer = tracer
    }

    /// Starts loading in the background.
    public func requestAvatar(for address: EmailAddress) {
        _ = start(address)
    }

    /// Loads and waits.
    public func loadAvatar(for address: EmailAddress) async {
        await start(address)?.value
    }

    /// Forgets the cached avatar and loads again; a request in flight is joined, not repeated.
    public func reloadAvatar(for address: EmailAddress) async {
        if inFlight[address] == nil { dataManager.forgetAvatar(for: address) }
        await loadAvatar(for: address)
    }

    /// Cancels the request in flight for `address`, if any.
    public func cancelAvatarRequest(for address: EmailAddress) {
        inFlight[address]?.cancel()
    }

    /// Decides what a request needs: nothing (cached), the request in flight, or a new call.
    private func start(_ address: EmailAddress) -> Task<Void, Never>? {
        if dataManager.avatar(for: address) != nil {
            statistics.cacheHits += 1
            return nil
        }
        if let running = inFlight[address] {
            statistics.coalesced += 1
            return running
        }
        statistics.requests += 1
        dataManager.propagate(.avatarLoading(address))
        tracer.record(from: .store, to: .service, "avatar(for: \(address))")
        let service = self.service
        let task = Task {
            let result: Result<Avatar, AvatarServiceError>
            do throws(AvatarServiceError) {
                result = .success(try await service.avatar(for: address))
            } catch {
                result = .failure(error)
            }
            self.finish(address, with: result, wasCancelled: Task.isCancelled)
        }
        inFlight[address] = task
        return task
    }

    private func finish(
        _ address: EmailAddress, with result: Result<Avatar, AvatarServiceError>, wasCancelled: Bool
    ) {
        inFlight[address] = nil
        switch result {
        case _ where wasCancelled, .failure(.cancelled):
            dataManager.propagate(.avatarCancelled(address))
        case .success(let avatar):
            dataManager.saveAvatar(avatar, for: address)
        case .failure(let error):
            statistics.failures += 1
            dataManager.propagate(.avatarFailed(address, message: error.description))
        }
    }
}
