public import MVCModel

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

    /// How many fetches are running: work started by a request that has not finished yet.
    var runningFetchCount: Int { get }

    /// Returns once every fetch running now, and every fetch those start, has finished and
    /// published what it found; for a test that waits for the work a screen started.
    func fetchesFinished() async
}
