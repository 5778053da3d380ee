// Production detail, skip on first read: the storage behind every property and channel, and the
// only file in MVCObservation with unsafe code.

/// The observers of one thing, delivered to in registration order, safe to change during a delivery.
///
/// Whoever touches a list holds its source's exclusion (``EndedObservations/holder``): the owner
/// during each use, or a token removing its observation. A token that finds the owner busy leaves
/// its id in ``EndedObservations``; a delivery looks there before each observer it calls and,
/// when something is waiting, has the owner remove it first.
///
/// Removing an observer leaves a tombstone in its slot, so indexes stay put: a delivery under way
/// skips the removed observer from then on, and removing many observers one by one (a screen of
/// presenters going away) costs O(log *n*) each instead of O(*n*). Tombstones are swept out once
/// they outnumber the live observers and no delivery is walking the slots.
///
/// **Delivery without reference counting.** Each entry lives in a box that the list retains by
/// hand (`Unmanaged`), once, when the entry is added. A delivery lends each entry to the caller
/// without retaining it, which is most of the cost of delivering one change to one observer (an
/// atomic increment and decrement around every call; the benchmarks show it). That is sound
/// because a box the list has lent is never released while a delivery of this list is walking
/// the slots:
///
/// - A box is detached from the slots only by whoever holds the exclusion, and a delivery runs
///   only inside an owner's use, which holds it: so no removal runs *concurrently* with a
///   delivery, on any thread. (A token that takes the exclusion finds no delivery under way, and
///   releases the box only after it has detached it and given the exclusion back.) The ordering
///   is the exclusion's compare-and-swap (acquire) and store (release).
/// - A removal during a delivery (a handler cancels itself or another observer, or the owner
///   takes in observations ended elsewhere) moves the box to `retired`, and the last delivery to
///   finish (the outermost, when a handler caused another) releases those. So an entry cannot
///   die while it is being called, even when its own handler cancels it.
/// - The list itself outlives the walk: whoever calls
///   ``forEachObserver(registeredBefore:endedElsewhere:removeEnded:_:)``
///   holds a reference to it for the call (a method's receiver is kept alive for the call;
///   `UpdateChannel.deliver` holds the keyed list in a local, since a handler can empty it and so
///   drop it from the channel's table).
///
/// It is a class so that a handler can change the list while a delivery walks it.
@usableFromInline
final class ObserverList<Entry> {
    /// An entry, in the box the list retains by hand.
    @usableFromInline
    final class Box {
        @usableFromInline let entry: Entry

        init(_ entry: Entry) {
            self.entry = entry
        }
    }

    @usableFromInline
    struct Slot {
        @usableFromInline let id: ObservationID
        /// Retained once by the list; `nil` once removed, until the sweep.
        @usableFromInline var box: Unmanaged<Box>?
    }

    // Exclusivity: these fields are checked statically, not at run time. That is sound because
    // every access to them is instantaneous: no access spans a call into a handler or any other
    // code outside this file (a delivery reads one slot, lets the access end, then calls), so
    // two accesses can never overlap. The run-time checks cost more than the rest of a delivery.

    @exclusivity(unchecked) @usableFromInline var slots: ContiguousArray<Slot> = []
    /// How many deliveries are walking the slots (more than one when a handler causes a prior
    /// notification of the same property).
    @exclusivity(unchecked) @usableFromInline var activeDeliveries = 0
    /// The number of observers, not counting tombstones.
    @exclusivity(unchecked) @usableFromInline var count = 0
    /// Boxes removed while a delivery was walking the slots; still retained, so an entry being
    /// called stays alive, and released when the last delivery ends.
    @exclusivity(unchecked) @usableFromInline var retired: [Unmanaged<Box>] = []

    @usableFromInline
    init() {}

    deinit {
        for slot in slots { slot.box?.release() }
        for box in retired { box.release() }
    }

    /// Whether no observer is registered.
    @inlinable
    var isEmpty: Bool { count == 0 }

    /// Appends an observer; `id` must be greater than every id in the list.
    func append(_ entry: Entry, id: ObservationID) {
        slots.append(Slot(id: id, box: .passRetained(Box(entry))))
        count += 1
    }

    /// Removes the observer with `id`, returning it, or `nil` if it was not there.
    ///
    /// - Complexity: Amortized O(log *n*).
    @discardableResult
    func remove(_ id: ObservationID) -> Entry? {
        guard let (entry, box) = detach(id) else { return nil }
        box?.release()
        return entry
    }

    /// Removes the observer with `id` as ``remove(_:)`` does, but hands its box to `released`
    /// instead of releasing it: a token ending its observation lets the handler go (whose
    /// captures' `deinit`s may run any code) only after it gave the exclusion back.
    @discardableResult
    func remove(_ id: ObservationID, releasingInto released: inout [Any]) -> Entry? {
        guard let (entry, box) = detach(id) else { return nil }
        if let box { released.append(box.takeRetainedValue()) }
        return entry
    }

    /// Takes the slot of `id` out; returns its entry, and its box when the caller must release
    /// it (`nil` when a delivery is walking the slots and the box was retired instead).
    private func detach(_ id: ObservationID) -> (Entry, Unmanaged<Box>?)? {
        guard let index = index(of: id), let box = slots[index].box else { return nil }
        slots[index].box = nil
        count -= 1
        let entry = box.takeUnretainedValue().entry
        guard activeDeliveries == 0 else {
            // A delivery may be calling this very entry: keep it until the deliveries end.
            retired.append(box)
            return (entry, nil)
        }
        sweepTombstonesIfWorthIt()
        return (entry, box)
    }

    /// The index of the slot with `id`, by binary search: ids only grow, and tombstones keep
    /// theirs, so the slots stay sorted.
    private func index(of id: ObservationID) -> Int? {
        var low = 0
        var high = slots.count
        while low < high {
            let middle = (low + high) / 2
            let candidate = slots[middle].id
            if candidate == id { return middle }
            if candidate < id { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// Calls `body` with the id and entry of each observer registered before `limit` that is
    /// still registered when its turn comes.
    ///
    /// `limit` is the next id at the moment of the change being delivered, so an observer added
    /// after the change (during this delivery, or while the change waited in a queue) does not
    /// hear it: it has seen the new value already. Before each call, observations ended on other
    /// threads are taken in (`ended`, removed by `removeEnded`), so an observation ended before
    /// its turn is not called.
    @inlinable
    func forEachObserver(
        registeredBefore limit: ObservationID, endedElsewhere ended: EndedObservations,
        removeEnded: () -> Void, _ body: (ObservationID, Entry) -> Void
    ) {
        activeDeliveries += 1
        var index = 0
        // Slots appended during the walk have ids of `limit` or more, and no sweep runs while a
        // delivery walks, so the walk ends at the first slot past the limit.
        while index < slots.count {
            if ended.mayHaveWaiting { removeEnded() }
            let slot = slots[index]
            if slot.id >= limit { break }
            if let box = slot.box {
                // Unretained: the box outlives this call (see the type's documentation).
                box._withUnsafeGuaranteedRef { body(slot.id, $0.entry) }
            }
            index += 1
        }
        activeDeliveries -= 1
        if activeDeliveries == 0, !retired.isEmpty || slots.count > 2 * count {
            endOfDeliveries()
        }
    }

    /// Releases the boxes removed during the deliveries that just ended, and sweeps tombstones.
    @usableFromInline
    func endOfDeliveries() {
        let boxes = retired
        retired.removeAll()
        for box in boxes { box.release() }
        sweepTombstonesIfWorthIt()
    }

    /// Drops the tombstones once they outnumber the live observers, unless a delivery is walking
    /// the slots; each sweep is paid for by the removals that made it necessary.
    @usableFromInline
    func sweepTombstonesIfWorthIt() {
        guard activeDeliveries == 0, slots.count > 2 * count else { return }
        slots.removeAll { $0.box == nil }
    }
}
