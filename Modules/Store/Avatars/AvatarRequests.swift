public import MVCModel

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
