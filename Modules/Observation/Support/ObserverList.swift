// Production detail, skip on first read: the storage behind every property and channel, and the
// only file in MVCObservation with unsafe code.
//
// `public import`: the ended flag is read by inlinable delivery code, so its type must be visible
// to clients' builds. Clients do not need to import Synchronization themselves.
public import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The part of one observation that its token and its list share: an id, and whether it ended.
///
/// The flag is the one piece of an observation that any thread may change. A token ended on
/// another thread (the `deinit` of a `@MainActor` object runs wherever its last reference goes)
/// sets it and asks the owner to remove the observation later; a delivery that reaches an ended
/// observation skips it. So a handler is never called after its token was cancelled, on whatever
/// thread that happened, except for a call already under way on the owner's thread at that
/// moment. The record holds no handler, so a token that outlives its list keeps nothing alive.
@usableFromInline
final class ObservationRecord: Sendable {
    @usableFromInline let id: ObservationID
    @usableFromInline let ended = Atomic<Bool>(false)
    /// The thread the observation was made on.
    let registeringThread: UInt

    init(id: ObservationID) {
        self.id = id
        self.registeringThread = Self.currentThread
    }

    /// Whether the calling thread is the one the observation was made on.
    var isOnRegisteringThread: Bool { Self.currentThread == registeringThread }

    private static var currentThread: UInt {
        #if canImport(Darwin)
            UInt(bitPattern: pthread_self())
        #else
            UInt(pthread_self())
        #endif
    }

    /// Whether the observation has ended.
    @inlinable
    var isEnded: Bool { ended.load(ordering: .relaxed) }

    /// Marks the observation ended; `true` if this call ended it, `false` if it had already ended.
    func end() -> Bool {
        !ended.exchange(true, ordering: .acquiringAndReleasing)
    }
}

/// The observers of one thing, delivered to in registration order, safe to change during a delivery.
///
/// Only the owner's isolation (the thread the model lives on) touches a list. Another thread that
/// ends an observation only sets the ended flag in the record it shares with the token (an atomic),
/// and leaves the removal to the owner, through ``EndedObservations``.
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
/// - Only the owner releases boxes (in ``remove(_:)`` and `deinit`), and the owner is the thread
///   doing the delivery, so no release can run *concurrently* with it. A token ended on another
///   thread releases only its own reference, never the list's; the owner removes the box later.
/// - A removal during a delivery (a handler cancels itself or another observer, or the owner
///   takes in observations ended elsewhere) moves the box to `retired`, and the last delivery to
///   finish (the outermost, when a handler caused another) releases those. So an entry cannot
///   die while it is being called, even when its own handler cancels it.
/// - The list itself outlives the walk: whoever calls ``forEachObserver(registeredBefore:_:)``
///   holds a reference to it for the call (a method's receiver is kept alive for the call;
///   `UpdateChannel.deliver` holds the keyed list in a local, since a handler can empty it and so
///   drop it from the channel's table).
///
/// It is a class so that a handler can change the list while a delivery walks it.
@usableFromInline
final class ObserverList<Entry> {
    /// An entry, in the box the list retains by hand, with the record its token shares.
    @usableFromInline
    final class Box {
        @usableFromInline let entry: Entry
        @usableFromInline let record: ObservationRecord

        init(_ entry: Entry, record: ObservationRecord) {
            self.entry = entry
            self.record = record
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
    ///
    /// - Returns: The observation's record, for its token.
    func append(_ entry: Entry, id: ObservationID) -> ObservationRecord {
        let record = ObservationRecord(id: id)
        slots.append(Slot(id: id, box: .passRetained(Box(entry, record: record))))
        count += 1
        return record
    }

    /// Removes the observer with `id`, returning it, or `nil` if it was not there.
    ///
    /// - Complexity: Amortized O(log *n*).
    @discardableResult
    func remove(_ id: ObservationID) -> Entry? {
        guard let index = index(of: id), let box = slots[index].box else { return nil }
        slots[index].box = nil
        count -= 1
        let entry = box.takeUnretainedValue().entry
        if activeDeliveries == 0 {
            box.release()
            sweepTombstonesIfWorthIt()
        } else {
            // A delivery may be calling this very entry: keep it until the deliveries end.
            retired.append(box)
        }
        return entry
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

    /// Calls `body` with the id and entry of each observer registered before `limit` that has
    /// not ended when its turn comes.
    ///
    /// `limit` is the next id at the moment of the change being delivered, so an observer added
    /// after the change (during this delivery, or while the change waited in a queue) does not
    /// hear it: it has seen the new value already.
    @inlinable
    func forEachObserver(
        registeredBefore limit: ObservationID, _ body: (ObservationID, Entry) -> Void
    ) {
        activeDeliveries += 1
        var index = 0
        // Slots appended during the walk have ids of `limit` or more, and no sweep runs while a
        // delivery walks, so the walk ends at the first slot past the limit.
        while index < slots.count {
            let slot = slots[index]
            if slot.id >= limit { break }
            if let box = slot.box {
                // Unretained: the box outlives this call (see the type's documentation).
                box._withUnsafeGuaranteedRef { box in
                    if !box.record.isEnded { body(slot.id, box.entry) }
                }
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
