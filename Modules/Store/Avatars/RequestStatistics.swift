/// What a ``RemoteConnectionManager`` did, counted.
public struct RequestStatistics: Sendable, Equatable {
    /// Calls made to the avatar service.
    public var requests = 0
    /// Requests that joined one already in flight for the same address instead of calling again.
    public var coalesced = 0
    /// Requests answered from the cache without calling the service.
    public var cacheHits = 0
    /// Service calls that failed (cancellations not counted).
    public var failures = 0

    /// Counters with the given values (all zero by default).
    public init(requests: Int = 0, coalesced: Int = 0, cacheHits: Int = 0, failures: Int = 0) {
        self.requests = requests
        self.coalesced = coalesced
        self.cacheHits = cacheHits
        self.failures = failures
    }
}
