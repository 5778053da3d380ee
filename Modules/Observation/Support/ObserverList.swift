/// The observers of one thing, delivered to in registration order, safe to change during a delivery.
///
/// A delivery walks a snapshot of the list (a copy-on-write copy, so taking it costs one retain).
/// If an observer is removed while the delivery is under way, every later observer is checked
/// against the live list before it is called, so a removed observer is never called again.
/// Observers added during a delivery are not in the snapshot: they hear the next change.
///
/// It is a class so that a handler can mutate the list while a delivery holds it.
@usableFromInline
final class ObserverList<Entry> {
    @usableFromInline
    struct Slot {
        @usableFromInline let id: ObservationID
        @usableFromInline let entry: Entry
    }

    @usableFromInline var slots: ContiguousArray<Slot> = []
    /// Counts removals so that a delivery can tell, with one comparison, whether any happened.
    @usableFromInline var removalCount = 0

    @usableFromInline
    init() {}

    /// Whether no observer is registered.
    @inlinable
    var isEmpty: Bool { slots.isEmpty }

    /// The number of registered observers.
    var count: Int { slots.count }

    /// Appends an observer; `id` must be greater than every id in the list.
    func append(_ entry: Entry, id: ObservationID) {
        slots.append(Slot(id: id, entry: entry))
    }

    /// Removes the observer with `id`, returning it, or `nil` if it was not there.
    ///
    /// - Complexity: O(*n*) to close the gap; finding it is O(log *n*).
    @discardableResult
    func remove(_ id: ObservationID) -> Entry? {
        guard let index = index(of: id) else { return nil }
        removalCount &+= 1
        return slots.remove(at: index).entry
    }

    /// Removes every observer.
    func removeAll() {
        if !slots.isEmpty { removalCount &+= 1 }
        slots.removeAll()
    }

    /// Whether the observer with `id` is still registered.
    ///
    /// - Complexity: O(log *n*).
    @usableFromInline
    func contains(_ id: ObservationID) -> Bool {
        index(of: id) != nil
    }

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

    /// Calls `body` with each observer registered now that is still registered when its turn comes.
    @inlinable
    func forEach(_ body: (Entry) -> Void) {
        let snapshot = slots
        let removalsBefore = removalCount
        for slot in snapshot {
            if removalCount != removalsBefore, !contains(slot.id) { continue }
            body(slot.entry)
        }
    }
}
