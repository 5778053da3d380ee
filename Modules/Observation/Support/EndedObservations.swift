// Production detail, skip on first read: who may touch a property's or a channel's observers at
// a given moment, and how an observation ended elsewhere reaches the owner.

// `public import`: inlinable delivery code reads the flags, so their type must be visible to
// clients' builds. Clients do not need to import Synchronization themselves.
public import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The exclusion between a source's owner and tokens ended on other threads, and the ids of
/// observations ended while the owner was busy.
///
/// A property or channel belongs to one isolation (its model's), but a token can be released on
/// any thread: the `deinit` of a `@MainActor` object runs wherever its last reference goes, and
/// an owner isolated to an actor other than the main one may run on a different thread for each
/// job. Which thread is the owner's is therefore no proof of anything. Instead, whoever touches
/// the observer list holds ``isBusy``: the owner for each use of the source (a change, an
/// observation made, a count), taken with one compare-and-swap at the outermost use; a token
/// ending its observation takes it with one attempt. A token that gets it removes the observation
/// at once (and lets the handler go after giving it back, so the handler's `deinit` runs outside
/// the exclusion); a token that does not, because the owner is busy right now, adds its id here,
/// and the owner removes it before each handler it calls and at its next use. So an observation
/// ended before its turn is not called, and no two threads ever touch the list at once.
///
/// The waiting ids have a lock of their own, an atomic flag spun on for the few instructions of
/// an append or a take (not `Mutex`: ThreadSanitizer cannot see its ordering on Linux).
@usableFromInline
final class EndedObservations: Sendable {
    /// Held by whoever touches the source's observers: the owner during a use, or a token ending
    /// its observation.
    @usableFromInline let isBusy = Atomic<Bool>(false)
    /// Whether ids may be waiting; read without the lock, as a hint.
    @usableFromInline let isWaiting = Atomic<Bool>(false)
    private let isQueueLocked = Atomic<Bool>(false)
    /// Written only while `isQueueLocked` is held.
    nonisolated(unsafe) private var ids: [ObservationID] = []

    @usableFromInline
    init() {}

    /// Whether an ended observation may be waiting; cheap enough to ask before every handler.
    @inlinable
    var mayHaveWaiting: Bool { isWaiting.load(ordering: .relaxed) }

    /// Takes the exclusion for the owner's outermost use, waiting out a token that holds it (a
    /// token holds it for one removal).
    @inlinable
    func acquire() {
        while !isBusy.compareExchange(expected: false, desired: true, ordering: .acquiring)
            .exchanged
        {
            Self.pause()
        }
    }

    /// Takes the exclusion if nobody holds it; for a token ending its observation.
    func tryAcquire() -> Bool {
        isBusy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
    }

    /// Gives the exclusion back.
    @inlinable
    func release() {
        isBusy.store(false, ordering: .releasing)
    }

    /// Adds an observation ended while the owner was busy, from any thread.
    func add(_ id: ObservationID) {
        lockQueue()
        ids.append(id)
        isWaiting.store(true, ordering: .relaxed)
        unlockQueue()
    }

    /// Takes every waiting id and calls `remove` with each, in the order they ended.
    ///
    /// For whoever holds ``isBusy``; the queue's lock is not held while `remove` runs.
    func removeWaiting(_ remove: (ObservationID) -> Void) {
        guard mayHaveWaiting else { return }
        lockQueue()
        let waiting = ids
        ids = []
        isWaiting.store(false, ordering: .relaxed)
        unlockQueue()
        for id in waiting { remove(id) }
    }

    private func lockQueue() {
        while !isQueueLocked.compareExchange(expected: false, desired: true, ordering: .acquiring)
            .exchanged
        {
            Self.pause()
        }
    }

    private func unlockQueue() {
        isQueueLocked.store(false, ordering: .releasing)
    }

    /// Lets the holder run while waiting for it: it holds the flag for a few instructions only.
    @usableFromInline
    static func pause() {
        _ = sched_yield()
    }
}
