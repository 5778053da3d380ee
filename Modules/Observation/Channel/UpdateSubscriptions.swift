/// The subscribing half of an ``UpdateChannel``: what an owner hands out so others can listen
/// without being able to publish.
///
/// A store keeps its channel private and offers its `subscriptions`, so a screen can hear every
/// update but cannot forge one; only the owner decides what happened.
///
/// ```swift
/// let channel = UpdateChannel<ModelUpdate>()
/// let feed = channel.subscriptions
/// let token = feed.subscribeToAll { update in print(update) }
/// ```
public struct UpdateSubscriptions<Update: KeyedUpdate> {
    private let channel: UpdateChannel<Update>

    init(channel: UpdateChannel<Update>) {
        self.channel = channel
    }

    /// Calls `handler` with every update published for `key`.
    ///
    /// - Parameters:
    ///   - key: The one key to hear about.
    ///   - handler: Called with each update for `key`.
    /// - Returns: The token that keeps the subscription alive.
    public func subscribe(to key: Update.Key, _ handler: @escaping (Update) -> Void)
        -> ObservationToken
    {
        channel.subscribe(to: key, handler)
    }

    /// Calls `handler` with every update, whatever its key.
    ///
    /// - Parameter handler: Called with each update.
    /// - Returns: The token that keeps the subscription alive.
    public func subscribeToAll(_ handler: @escaping (Update) -> Void) -> ObservationToken {
        channel.subscribeToAll(handler)
    }

    /// The number of live subscriptions to `key`, not counting subscriptions to all keys.
    public func subscriberCount(for key: Update.Key) -> Int {
        channel.subscriberCount(for: key)
    }

    /// The number of live subscriptions to all keys.
    public var subscriberToAllCount: Int { channel.subscriberToAllCount }
}

extension UpdateChannel {
    /// A view of this channel that can subscribe but not publish, for handing to listeners.
    public var subscriptions: UpdateSubscriptions<Update> { UpdateSubscriptions(channel: self) }
}
