public import MVCModel
public import MVCTracing

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
    /// Forwarded to the remote connection manager.
    public var runningFetchCount: Int { remoteConnectionManager.runningFetchCount }
    /// Forwarded to the remote connection manager.
    public func fetchesFinished() async {
        await remoteConnectionManager.fetchesFinished()
    }
}
