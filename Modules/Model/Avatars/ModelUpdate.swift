public import MVCObservation

/// Something that changed in the model, keyed by what it is about.
///
/// Screens subscribe to the key they show (``Key/avatar(_:)`` for one address, ``Key/contacts``
/// for the list), so an avatar that lands reaches its row and no other.
public enum ModelUpdate: KeyedUpdate, Sendable, Equatable {
    /// What an update is about.
    public enum Key: Hashable, Sendable {
        /// The avatar of one address.
        case avatar(EmailAddress)
        /// The list of contacts.
        case contacts
    }

    /// A request for the avatar of an address started.
    case avatarLoading(EmailAddress)
    /// The avatar of an address was loaded and stored.
    case avatarLoaded(EmailAddress)
    /// A request for the avatar of an address was answered from the cache, without a fetch.
    case avatarAlreadyLoaded(EmailAddress)
    /// Loading the avatar of an address failed; the message says why.
    case avatarFailed(EmailAddress, message: String)
    /// A request for the avatar of an address was cancelled before it finished.
    case avatarCancelled(EmailAddress)
    /// Contacts were added or removed.
    case contactsChanged

    /// What the update is about.
    public var key: Key {
        switch self {
        case .avatarLoading(let address), .avatarLoaded(let address),
            .avatarAlreadyLoaded(let address), .avatarFailed(let address, _),
            .avatarCancelled(let address):
            .avatar(address)
        case .contactsChanged:
            .contacts
        }
    }
}
