// Production detail, skip on first read: how an observation ended on another thread reaches the
// owner of what it observed.

// `public import`: inlinable delivery code reads the flag, so its type must be visible to
// clients' builds. Clients do not need to import Synchronization themselves.
public import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Observations whose tokens ended them on another thread, waiting for the owner to remove them.
///
/// A property or channel belongs to one isolation (its model's), but a token can be released on
/// any thread: the `deinit` of a `@MainActor` object runs wherever its last reference goes. A
/// token ended on the thread its source was last observed from removes the observation at once
/// (that is where the owner is); a token ended on any other thread adds its id here instead. The
/// owner takes the ids in at its next use (a change, a new observation, a count), and a delivery
/// takes them in before each handler it calls, so an observation ended before its turn is not
/// called.
///
/// This is the one lock in MVCObservation, and it is off the delivery path: ending an
/// observation elsewhere takes it once, and the owner takes it only when the flag says something
/// is waiting.
@usableFromInline
final class EndedObservations: Sendable {
    private let ids = Mutex<[ObservationID]>([])
    /// Whether `ids` may hold something; read without the lock, as a hint.
    @usableFromInline let isWaiting = Atomic<Bool>(false)
    /// The thread the owner last made an observation on.
    private let ownerThread = Atomic<UInt>(0)

    @usableFromInline
    init() {}

    /// Whether an ended observation may be waiting; cheap enough to ask before every handler.
    @inlinable
    var mayHaveWaiting: Bool { isWaiting.load(ordering: .relaxed) }

    /// Notes the calling thread as the owner's; the owner calls it when it makes an observation.
    func noteOwnerThread() {
        ownerThread.store(Self.currentThread, ordering: .relaxed)
    }

    /// Whether the calling thread is the one the owner last made an observation on, so an
    /// observation ended here can be removed at once.
    var isOnOwnerThread: Bool {
        ownerThread.load(ordering: .relaxed) == Self.currentThread
    }

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

    private static var currentThread: UInt {
        #if canImport(Darwin)
            UInt(bitPattern: pthread_self())
        #else
            UInt(pthread_self())
        #endif
    }
}
