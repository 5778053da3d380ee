public import MVCModel
public import MVCObservation
public import MVCTracing

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
