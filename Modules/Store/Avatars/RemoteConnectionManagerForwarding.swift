public import MVCModel

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
