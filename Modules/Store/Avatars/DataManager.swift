public import MVCModel
public import MVCObservation
public import MVCTracing

/// The operations of the data manager that screens may use: contacts, cached avatars, and the
/// update channel to follow.
///
/// ``ModelManager`` offers them by conforming to ``DataManagerForwarding``; adding an operation
/// here (and its one forwarding line there) needs no edit to the facade. Keeping the cache and
/// publishing updates are ``DataManagerMaintenance``, which the facade does not offer: a screen
/// follows updates, it never publishes them.
@MainActor
public protocol DataManagerOperations: AnyObject {
    /// The contacts, in the order they were added.
    var contacts: [Contact] { get }
    /// Adds a contact, and publishes `ModelUpdate.contactsChanged`.
    ///
    /// - Throws: ``DataManagerError/duplicateContact(_:)`` if the address is already listed.
    func addContact(_ contact: Contact) throws(DataManagerError)
    /// The cached avatar of `address`, if it has been loaded.
    func avatar(for address: EmailAddress) -> Avatar?
    /// Where updates are published: subscribe to one key, or to all (publishing is the data
    /// manager's alone).
    var updates: UpdateSubscriptions<ModelUpdate> { get }
}

/// What the managers behind the facade do to the data manager: keep the cache and publish.
///
/// The remote connection manager uses these; screens, through the facade, cannot.
@MainActor
public protocol DataManagerMaintenance: DataManagerOperations {
    /// Caches `avatar` for `address`, and publishes `ModelUpdate.avatarLoaded`.
    func saveAvatar(_ avatar: Avatar, for address: EmailAddress)
    /// Forgets the cached avatar of `address`, so the next request loads it again.
    func forgetAvatar(for address: EmailAddress)
    /// Delivers `update` to the subscribers of its key.
    func propagate(_ update: ModelUpdate)
}

/// Holds contacts and avatars per address, and publishes every change as a keyed `ModelUpdate`.
@MainActor
public final class DataManager: DataManagerMaintenance {
    /// Where updates are published; only this data manager publishes on it.
    private let channel = UpdateChannel<ModelUpdate>()
    /// The contacts, in the order they were added.
    public private(set) var contacts: [Contact]
    private var avatars: [EmailAddress: Avatar] = [:]
    private let tracer: HopTracer

    /// Creates a data manager.
    ///
    /// - Parameters:
    ///   - contacts: The contacts to start with.
    ///   - tracer: Told each update that leaves for the observation layer.
    public init(contacts: [Contact] = [], tracer: HopTracer = .disabled) {
        self.contacts = contacts
        self.tracer = tracer
    }

    /// Where to follow updates: subscribe to one key, or to all.
    public var updates: UpdateSubscriptions<ModelUpdate> { channel.subscriptions }

    /// Adds a contact at the end.
    public func addContact(_ contact: Contact) throws(DataManagerError) {
        guard !contacts.contains(where: { $0.address == contact.address }) else {
            throw .duplicateContact(contact.address)
        }
        contacts.append(contact)
        propagate(.contactsChanged)
    }

    /// The cached avatar of `address`.
    public func avatar(for address: EmailAddress) -> Avatar? {
        avatars[address]
    }

    /// Caches an avatar and tells the address's subscribers.
    public func saveAvatar(_ avatar: Avatar, for address: EmailAddress) {
        avatars[address] = avatar
        propagate(.avatarLoaded(address))
    }

    /// Forgets a cached avatar.
    public func forgetAvatar(for address: EmailAddress) {
        avatars[address] = nil
    }

    /// Publishes `update` to the subscribers of ``updates``.
    public func propagate(_ update: ModelUpdate) {
        tracer.record(from: .store, to: .observation, "\(update)")
        channel.publish(update)
    }
}

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
