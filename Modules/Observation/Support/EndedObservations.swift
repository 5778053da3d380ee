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
/// the observer list holds ``holder``: the owner for each use of the source (a change, an
/// observation made, a count), taken with one compare-and-swap at the outermost use; a token
/// ending its observation takes it with one attempt. A token that gets it removes the observation
/// at once (and lets the handler go after giving it back, so the handler's `deinit` runs outside
/// the exclusion); a token that does not, because the owner is busy right now, adds its id here,
/// and the owner removes it before each handler it calls and at its next use. So an observation
/// ended before its turn is not called, and no two threads ever touch the list at once.
///
/// The waiting ids have a lock of their own, an atomic flag spun on for the few instructions of
/// an append or a take (not `Mutex`: ThreadSanitizer cannot see its ordering on Linux).
///
/// A handler removed by a token is let go on the token's thread, as the `deinit` that ended the
/// token lets go of everything else its object held there. While a token holds the exclusion it
/// runs no code of the user's except the channel key's `hash` and `==` (a key that touches its
/// own channel from there would spin for ever; none should).
@usableFromInline
final class EndedObservations: Sendable {
    /// Who touches the source's observers now: nobody (``free``), the owner during a use
    /// (``owner``), or a token ending its observation (``token``, for one removal).
    @usableFromInline let holder = Atomic<UInt8>(0)
    @usableFromInline static var free: UInt8 { 0 }
    @usableFromInline static var owner: UInt8 { 1 }
    static var token: UInt8 { 2 }
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
        while !holder.compareExchange(
            expected: Self.free, desired: Self.owner, ordering: .acquiring
        ).exchanged {
            Self.pause()
        }
    }

    /// Gives the owner's exclusion back.
    @inlinable
    func release() {
        holder.store(Self.free, ordering: .releasing)
    }

    /// Takes the exclusion for a token, waiting out another token (which holds it for one
    /// removal) but not the owner (whose use may be long): `false` when the owner holds it.
    private func acquireUnlessOwnerBusy() -> Bool {
        while true {
            let (exchanged, found) = holder.compareExchange(
                expected: Self.free, desired: Self.token, ordering: .acquiring)
            if exchanged { return true }
            if found == Self.owner { return false }
            Self.pause()
        }
    }

    /// Ends observation `id` for its token, on any thread: removes it with `remove` at once if the
    /// owner is not using the source right now, else queues it for the owner.
    ///
    /// `remove` hands what the observation held (its box, a stream's ending) to the array it is
    /// given; that is let go only after the exclusion is given back, so the `deinit`s of what a
    /// handler captured run outside it (one of them may use the source again).
    ///
    /// A token that queues tries once more after queueing: the owner may have finished its use
    /// in between. What stays queued is taken in by the owner before its next handler, at the
    /// end of its use, or at its next use; only an end that lands in the last instructions of
    /// an owner's use (after its final look at the queue, before it gives the exclusion back)
    /// waits for the next use.
    func end(_ id: ObservationID, removing remove: (ObservationID, inout [Any]) -> Void) {
        var released: [Any] = []
        if acquireUnlessOwnerBusy() {
            remove(id, &released)
        } else {
            add(id)
            guard acquireUnlessOwnerBusy() else { return }
        }
        // Whatever other tokens queued while this one held the exclusion, or before.
        while mayHaveWaiting { removeWaiting { remove($0, &released) } }
        holder.store(Self.free, ordering: .releasing)
        released.removeAll()
    }

    /// Adds an observation ended while the owner was busy, from any thread.
    private func add(_ id: ObservationID) {
        lockQueue()
        ids.append(id)
        isWaiting.store(true, ordering: .relaxed)
        unlockQueue()
    }

    /// Takes every waiting id and calls `remove` with each, in the order they ended.
    ///
    /// For whoever holds the exclusion; the queue's lock is not held while `remove` runs.
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
