/// An update that says which key it is about, so an ``UpdateChannel`` can route it.
///
/// ```swift
/// enum AvatarUpdate: KeyedUpdate {
///     case loaded(EmailAddress)
///     case failed(EmailAddress)
///     var key: EmailAddress { ... }
/// }
/// ```
public protocol KeyedUpdate {
    /// What subscribers subscribe to: an address, an id.
    associatedtype Key: Hashable

    /// The key this update is about; only subscribers to this key (and to all keys) receive it.
    var key: Key { get }
}
