/// Publishes typed updates under keys; a subscriber hears one key's updates, or all of them.
///
/// A screen that shows one e-mail address subscribes to that address only, instead of hearing
/// every update and filtering by hand. Delivering an update looks its key up in a dictionary,
/// so its cost depends on the subscribers *to that key*, not on how many listen to others.
///
/// Delivery order and reentrancy are the ``ChangeCoordinator``'s: an update published by a
/// subscriber during a delivery is delivered after the current one, and updates published in a
/// batch are delivered, in order, when it ends. Within one update, subscribers to its key hear it
/// before subscribers to all keys, each group in subscription order. A subscriber hears the
/// updates published after it subscribed: one waiting to be delivered when it subscribes is not
/// delivered to it.
///
/// Subscriptions end as observations do (see ``ObservationToken``): from any thread; the handler
/// is released at once unless the owner is using the channel at that moment, and then at once
/// after (see `EndedObservations`).
///
/// Not thread-safe: use a channel from the isolation domain of its owner.
public final class UpdateChannel<Update: KeyedUpdate> {
    @usableFromInline typealias Handler = (Update) -> Void

    @usableFromInline let coordinator: ChangeCoordinator
    @usableFromInline var subscribersByKey: [Update.Key: ObserverList<Handler>] = [:]
    @usableFromInline let subscribersToAll = ObserverList<Handler>()
    /// Subscriptions whose tokens ended them, on any thread, not yet removed from the lists.
    @usableFromInline let ended = EndedObservations()
    /// The key of each keyed subscription, so a token can find its list; `nil` for all-key ones.
    private var keyByID: [ObservationID: Update.Key?] = [:]
    // Checked statically, not at run time: every access is instantaneous (read into a local
    // before any handler runs), and publishing reads it on every update.
    @exclusivity(unchecked) @usableFromInline var nextID: ObservationID = 0
    /// How deep the owner's uses of the subscribers are nested; the outermost takes the
    /// exclusion (see `EndedObservations`).
    @exclusivity(unchecked) @usableFromInline var useDepth = 0

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
        beginUse()
        defer { endUse() }
        removeEndedSubscriptions()
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
        beginUse()
        defer { endUse() }
        removeEndedSubscriptions()
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
        beginUse()
        defer { endUse() }
        let limit = nextID
        if coordinator.isIdle {
            if ended.mayHaveWaiting { removeEndedSubscriptions() }
            coordinator.deliver { deliver(update, registeredBefore: limit) }
        } else if coordinator.isBatching {
            enqueueAfterBatch(update, registeredBefore: limit)
        } else {
            enqueueAfterDelivery(update, registeredBefore: limit)
        }
    }

    @usableFromInline
    func enqueueAfterBatch(_ update: Update, registeredBefore limit: ObservationID) {
        coordinator.deferUntilBatchEnds { [self] in deliver(update, registeredBefore: limit) }
    }

    @usableFromInline
    func enqueueAfterDelivery(_ update: Update, registeredBefore limit: ObservationID) {
        coordinator.deliverOrQueue { [self] in deliver(update, registeredBefore: limit) }
    }

    /// The number of live subscriptions to `key`, not counting subscriptions to all keys.
    public func subscriberCount(for key: Update.Key) -> Int {
        beginUse()
        defer { endUse() }
        removeEndedSubscriptions()
        return subscribersByKey[key]?.count ?? 0
    }

    /// The number of live subscriptions to all keys.
    public var subscriberToAllCount: Int {
        beginUse()
        defer { endUse() }
        removeEndedSubscriptions()
        return subscribersToAll.count
    }

    /// Delivers `update` to the subscribers that subscribed before `limit`, the next id when it
    /// was published.
    @inlinable
    func deliver(_ update: Update, registeredBefore limit: ObservationID) {
        // A queued update may be delivered while another source of the model is in use.
        beginUse()
        defer { endUse() }
        if let list = subscribersByKey[update.key] {
            list.forEachObserver(
                registeredBefore: limit, endedElsewhere: ended,
                removeEnded: removeEndedSubscriptions
            ) { _, handler in handler(update) }
        }
        subscribersToAll.forEachObserver(
            registeredBefore: limit, endedElsewhere: ended, removeEnded: removeEndedSubscriptions
        ) { _, handler in handler(update) }
    }

    /// Removes the subscriptions whose tokens ended them since the last call, on any thread.
    @usableFromInline
    func removeEndedSubscriptions() {
        ended.removeWaiting(removeSubscription)
    }

    /// Marks the start of a use of the subscribers by the owner; the outermost use takes the
    /// exclusion, waiting out a token that holds it for a removal.
    @inlinable
    func beginUse() {
        if useDepth == 0 { ended.acquire() }
        useDepth += 1
    }

    /// Marks the end of a use; the outermost takes in what was ended meanwhile and gives the
    /// exclusion back.
    @inlinable
    func endUse() {
        // A loop: letting a removed handler go may end another subscription of this channel.
        while useDepth == 1 && ended.mayHaveWaiting { removeEndedSubscriptions() }
        useDepth -= 1
        if useDepth == 0 { ended.release() }
    }

    private func makeID(for key: Update.Key?) -> ObservationID {
        let id = nextID
        nextID += 1
        keyByID[id] = .some(key)
        return id
    }
}

extension UpdateChannel: ObservationSource {
    /// Called by a token, on any thread, to end subscription `id`.
    ///
    /// Removed at once if the owner is not using the channel right now, else left for the owner,
    /// who removes it before the next handler it calls. The handler is let go after the
    /// exclusion is given back.
    func observationEnded(_ id: ObservationID) {
        ended.end(id) { id, released in removeSubscription(id, releasingInto: &released) }
    }

    /// Removes one subscription; for whoever holds the exclusion.
    private func removeSubscription(_ id: ObservationID) {
        var released: [Any] = []
        removeSubscription(id, releasingInto: &released)
    }

    /// Removes one subscription, handing what it held (its box, its key's emptied list) to
    /// `released`.
    private func removeSubscription(_ id: ObservationID, releasingInto released: inout [Any]) {
        guard let entry = keyByID.removeValue(forKey: id) else { return }
        guard let key = entry else {
            subscribersToAll.remove(id, releasingInto: &released)
            return
        }
        guard let list = subscribersByKey[key] else { return }
        list.remove(id, releasingInto: &released)
        if list.isEmpty {
            subscribersByKey[key] = nil
            released.append(list)
        }
    }
}
