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

    /// No requests yet.
    public init() {}

    /// The counters as `name: value` lines, in a fixed order: requests, coalesced, cache-hits, failures.
    public var lines: [String] {
        [
            "requests: \(requests)", "coalesced: \(coalesced)", "cache-hits: \(cacheHits)",
            "failures: \(failures)",
        ]
    }
}
