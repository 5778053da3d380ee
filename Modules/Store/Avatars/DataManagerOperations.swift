public import MVCModel
public import MVCObservation

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
