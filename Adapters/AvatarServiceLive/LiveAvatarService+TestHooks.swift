// Test hooks: what a test waits for instead of a fixed time.

extension LiveAvatarService {
    /// How many of this service's requests wait for their turn now (see
    /// ``maximumConcurrentRequests``).
    package var requestsWaitingTheirTurn: Int { limiter.waitingCount }
}
