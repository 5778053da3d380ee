/// Publishes typed updates under keys; a subscriber hears one key's updates, or all of them.
///
/// A screen that shows one e-mail address subscribes to that address only, instead of hearing
/// every update and filtering by hand. Delivering an update looks its key up in a dictionary,
/// so its cost depends on the subscribers *to that key*, not on how many listen to others.
///
/// Delivery order and reentrancy are the ``ChangeCoordinator``'s: an update published by a
/// subscriber during a delivery is delivered after the current one, and updates published in a
/// batch are delivered, in order, when it ends. Within one update, subscribers to its key hear it
/// before subscribers to all keys, each group in subscription order.
///
/// Not thread-safe: use a channel from the isolation domain of its owner.
public final class UpdateChannel<Update: KeyedUpdate> {
    @usableFromInline typealias Handler = (Update) -> Void

    @usableFromInline let coordinator: ChangeCoordinator
    @usableFromInline var subscribersByKey: [Update.Key: ObserverList<Handler>] = [:]
    @usableFromInline let subscribersToAll = ObserverList<Handler>()
    /// The key of each keyed subscription, so a token can find its list; `nil` for all-key ones.
    private var keyByID: [ObservationID: Update.Key?] = [:]
    private var nextID: ObservationID = 0

    /// Creates a channel with no subscribers.
    ///
    /// - Parameter coordinator: The coordinator of the model the channel belongs to.
    public init(coordinator: ChangeCoordinator = ChangeCoordinator()) {
        self.coordinator = coordinator
    }

    /// Calls `handler` with every update published for `key`.
    ///
    /// - Parameters:
    ///   - key: The one key to hear about.
    ///   - handler: Called with each update for `key`.
    /// - Returns: The token that keeps the subscription alive.
    /// - Complexity: Amortized O(1).
    public func subscribe(to key: Update.Key, _ handler: @escaping (Update) -> Void)
        -> ObservationToken
    {
        let id = makeID(for: key)
        let list: ObserverList<Handler>
        if let existing = subscribersByKey[key] {
            list = existing
        } else {
            list = ObserverList()
            subscribersByKey[key] = list
        }
        list.append(handler, id: id)
        return ObservationToken(source: self, id: id)
    }

    /// Calls `handler` with every update, whatever its key.
    ///
    /// - Parameter handler: Called with each update.
    /// - Returns: The token that keeps the subscription alive.
    public func subscribeToAll(_ handler: @escaping (Update) -> Void) -> ObservationToken {
        let id = makeID(for: nil)
        subscribersToAll.append(handler, id: id)
        return ObservationToken(source: self, id: id)
    }

    /// Delivers `update` to the subscribers of its key, then to the subscribers to all keys.
    ///
    /// - Parameter update: The update to deliver.
    /// - Complexity: O(*k* + *a*) for *k* subscribers to the update's key and *a* to all keys,
    ///   whatever the number of subscribers to other keys.
    @inlinable
    public func publish(_ update: Update) {
        if coordinator.isIdle {
            coordinator.deliver { deliver(update) }
        } else if coordinator.isBatching {
            enqueueAfterBatch(update)
        } else {
            enqueueAfterDelivery(update)
        }
    }

    @usableFromInline
    func enqueueAfterBatch(_ update: Update) {
        coordinator.deferUntilBatchEnds { [self] in deliver(update) }
    }

    @usableFromInline
    func enqueueAfterDelivery(_ update: Update) {
        coordinator.deliverOrQueue { [self] in deliver(update) }
    }

    /// The number of live subscriptions to `key`, not counting subscriptions to all keys.
    public func subscriberCount(for key: Update.Key) -> Int {
        subscribersByKey[key]?.count ?? 0
    }

    /// The number of live subscriptions to all keys.
    public var subscriberToAllCount: Int { subscribersToAll.count }

    @inlinable
    func deliver(_ update: Update) {
        if let list = subscribersByKey[update.key] {
            list.forEachObserver { handler in handler(update) }
        }
        subscribersToAll.forEachObserver { handler in handler(update) }
    }

    private func makeID(for key: Update.Key?) -> ObservationID {
        let id = nextID
        nextID += 1
        keyByID[id] = .some(key)
        return id
    }
}

extension UpdateChannel: ObservationSource {
    func removeObservation(_ id: ObservationID) {
        guard let entry = keyByID.removeValue(forKey: id) else { return }
        guard let key = entry else {
            subscribersToAll.remove(id)
            return
        }
        guard let list = subscribersByKey[key] else { return }
        list.remove(id)
        if list.isEmpty { subscribersByKey[key] = nil }
    }
}
