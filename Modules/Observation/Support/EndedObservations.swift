// Production detail, skip on first read: how an observation ended on another thread reaches the
// owner of what it observed.

// `public import`, as in ObserverList.swift: inlinable code reads the flag.
public import Synchronization

/// Observations whose tokens ended them on some thread, waiting for the owner to remove them.
///
/// A property or channel belongs to one isolation (its model's), but a token can be released on
/// any thread: the `deinit` of a `@MainActor` object runs wherever its last reference goes. So a
/// token never removes its observation itself. It marks the observation ended (deliveries skip it
/// from then on) and adds its id here; the owner takes the ids in at its next use (a change, a
/// new observation, a count) and at the end of each delivery, and only then lets the handler go.
///
/// This is the one lock in MVCObservation, and it is off the delivery path: ending an observation
/// takes it once, and the owner takes it only when the flag says something is waiting.
@usableFromInline
final class EndedObservations: Sendable {
    private let ids = Mutex<[ObservationID]>([])
    /// Whether `ids` may hold something; read without the lock, as a hint.
    @usableFromInline let isWaiting = Atomic<Bool>(false)

    @usableFromInline
    init() {}

    /// Whether an ended observation may be waiting; cheap enough to ask on every change.
    @inlinable
    var mayHaveWaiting: Bool { isWaiting.load(ordering: .relaxed) }

    /// Adds an ended observation, from any thread.
    func add(_ id: ObservationID) {
        ids.withLock { ids in
            ids.append(id)
            isWaiting.store(true, ordering: .relaxed)
        }
    }

    /// Takes every waiting id and calls `remove` with each, in the order they ended.
    ///
    /// For the owner; the lock is not held while `remove` runs.
    func removeWaiting(_ remove: (ObservationID) -> Void) {
        guard mayHaveWaiting else { return }
        let waiting = ids.withLock { ids in
            isWaiting.store(false, ordering: .relaxed)
            defer { ids = [] }
            return ids
        }
        for id in waiting { remove(id) }
    }
}
