public import MVCModel
public import MVCObservation
public import MVCTracing

/// Offers the data manager's operations by forwarding each to ``dataManager``.
///
/// The forwarding is written here, once, for every conformer; the compiler checks that every
/// operation of ``DataManagerOperations`` has its forwarding line.
@MainActor
public protocol DataManagerForwarding: DataManagerOperations {
    /// The data manager the operations go to.
    var dataManager: any DataManagerOperations { get }
    /// Told of each operation the facade hands on, as a hop from the facade to the store layer.
    var forwardingTracer: HopTracer { get }
}

extension DataManagerForwarding {
    /// Forwarded to the data manager.
    public var contacts: [Contact] { dataManager.contacts }
    /// Forwarded to the data manager.
    public func addContact(_ contact: Contact) throws(DataManagerError) {
        forwardingTracer.record(
            from: .facade, to: .store, "dataManager.addContact(\(contact.address))")
        try dataManager.addContact(contact)
    }
    /// Forwarded to the data manager.
    public func avatar(for address: EmailAddress) -> Avatar? { dataManager.avatar(for: address) }
    /// Forwarded to the data manager.
    public var updates: UpdateSubscriptions<ModelUpdate> { dataManager.updates }
}
