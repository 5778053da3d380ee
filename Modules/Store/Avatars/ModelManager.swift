public import MVCModel
public import MVCTracing

/// Everything a screen may ask of the model: the union of the sub-managers' operations, and
/// ``FetchTracking``, so that a screen or a test can wait for the loads it started.
public typealias ModelManaging = DataManagerOperations & RemoteConnectionManagerOperations
    & FetchTracking

/// The facade screens talk to: its API is the composition of the sub-managers' protocols.
///
/// It writes no forwarding of its own. Conforming to ``DataManagerForwarding`` and
/// ``RemoteConnectionManagerForwarding`` gives it every operation of ``DataManagerOperations`` and
/// ``RemoteConnectionManagerOperations``, each going to the sub-manager whose protocol declares it.
/// Adding an operation to a sub-manager's protocol changes nothing here, and one that cannot be
/// forwarded does not compile: there is no run-time lookup that could answer `nil`.
///
/// Not a singleton: the composition root makes one and hands it to whoever needs it.
@MainActor
public final class ModelManager: DataManagerForwarding, RemoteConnectionManagerForwarding {
    /// Holds contacts and avatars.
    public let dataManager: any DataManagerOperations
    /// Loads avatars.
    public let remoteConnectionManager: any RemoteConnectionManagerOperations
    /// Told of each operation the facade hands on to a sub-manager.
    public let forwardingTracer: HopTracer

    /// Assembles the facade from its sub-managers.
    ///
    /// - Parameters:
    ///   - dataManager: Holds contacts and avatars.
    ///   - remoteConnectionManager: Loads avatars.
    ///   - tracer: Told of each operation the facade hands on to a sub-manager.
    public init(
        dataManager: any DataManagerOperations,
        remoteConnectionManager: any RemoteConnectionManagerOperations,
        tracer: HopTracer = .disabled
    ) {
        self.dataManager = dataManager
        self.remoteConnectionManager = remoteConnectionManager
        self.forwardingTracer = tracer
    }

    /// Builds the usual sub-managers: a ``DataManager`` and a ``RemoteConnectionManager`` on `service`.
    ///
    /// - Parameters:
    ///   - contacts: The contacts to start with.
    ///   - service: Where avatars come from.
    ///   - tracer: Told each hop the managers make.
    public convenience init(
        contacts: [Contact] = [], service: any AvatarService, tracer: HopTracer = .disabled
    ) {
        let data = DataManager(contacts: contacts, tracer: tracer)
        self.init(
            dataManager: data,
            remoteConnectionManager: RemoteConnectionManager(
                dataManager: data, service: service, tracer: tracer),
            tracer: tracer
        )
    }
}
