/// Work a manager goes on with after a call returns, for whoever must wait for it: a test that
/// checks what a screen shows once loading ends, or a presenter asked whether it is busy.
///
/// A hook for tests and tools, kept apart from the operations a screen uses: the operations
/// protocols do not inherit it; ``RemoteConnectionManager`` and the ``ModelManager`` facade
/// conform to it here.
@MainActor
public protocol FetchTracking: AnyObject {
    /// How many fetches are running: work started by a request that has not finished yet.
    var runningFetchCount: Int { get }

    /// Returns once every fetch running now, and every fetch those start, has finished and
    /// published what it found.
    func fetchesFinished() async
}

extension RemoteConnectionManager: FetchTracking {
    /// How many fetches are running (a test waits for none before it ends).
    public var runningFetchCount: Int { fetches.count }

    /// Returns once no fetch is running: each one running has finished and published its result.
    public func fetchesFinished() async {
        while let fetch = fetches.values.first {
            await fetch.value
        }
    }
}

extension ModelManager: FetchTracking {
    /// How many fetches its remote connection manager is running; none for one that does not
    /// track them.
    public var runningFetchCount: Int {
        (remoteConnectionManager as? any FetchTracking)?.runningFetchCount ?? 0
    }

    /// Returns once its remote connection manager runs no fetch (at once, for one that does not
    /// track them).
    public func fetchesFinished() async {
        await (remoteConnectionManager as? any FetchTracking)?.fetchesFinished()
    }
}
