/// Orders the notifications of one model: batches changes, and delivers one change at a time.
///
/// Every ``ObservableProperty`` and ``UpdateChannel`` belongs to a coordinator. Give the
/// properties of one model object the same coordinator, and that model gets two guarantees:
///
/// - **Batching.** Changes made inside ``batch(_:)`` are delivered after it, each property at
///   most once, with its value before the batch and its value after. A property whose value
///   ends where it started (by `==`) is not reported. Updates published to a channel inside a
///   batch are delivered after it, in the order they were published. Batches nest; only the
///   outermost one delivers.
/// - **Run to completion.** While handlers are being called for one change, a change made by a
///   handler (to any property of the same coordinator) is queued, and delivered after every
///   handler of the first change has run, in the order the changes were made. No handler ever
///   hears a newer change before an older one. Reads always see the newest value: only the
///   *notification* waits.
///
/// Prior notifications (``ObservationOptions/prior``) are never queued: they run before the value
/// is stored, which is their whole point.
///
/// A coordinator is not thread-safe. Like the model it serves, it belongs to one isolation domain
/// (the main actor, for UI models).
public final class ChangeCoordinator {
    // Exclusivity: checked statically, not at run time, because every access is instantaneous
    // (a queued delivery is copied out before it is called), so no two accesses can overlap.
    @exclusivity(unchecked) @usableFromInline var batchDepth = 0
    @exclusivity(unchecked) @usableFromInline var isDelivering = false
    @exclusivity(unchecked) private var batchFlushes: [() -> Void] = []
    @exclusivity(unchecked) @usableFromInline var queuedDeliveries: [() -> Void] = []

    /// Creates a coordinator with no batch open.
    @inlinable
    public init() {}

    /// Whether a batch is open.
    public var isBatching: Bool { batchDepth > 0 }

    /// Whether a change can be delivered at once: no batch is open and no delivery is running.
    @inlinable
    var isIdle: Bool { batchDepth == 0 && !isDelivering }

    /// Runs `body`, then delivers the changes it made: each property once, each update in order.
    ///
    /// If `body` throws, the changes it made before throwing stay made and are delivered, and the
    /// error is rethrown.
    ///
    /// - Parameter body: The changes to make.
    /// - Returns: What `body` returns.
    @discardableResult
    public func batch<Result>(_ body: () throws -> Result) rethrows -> Result {
        batchDepth += 1
        defer {
            batchDepth -= 1
            if batchDepth == 0 { endBatch() }
        }
        return try body()
    }

    /// Registers work to run when the outermost batch ends; it is delivered like any change.
    func deferUntilBatchEnds(_ flush: @escaping () -> Void) {
        batchFlushes.append(flush)
    }

    /// Runs `delivery` now if nothing else is being delivered, otherwise queues it.
    func deliverOrQueue(_ delivery: @escaping () -> Void) {
        if isDelivering {
            queuedDeliveries.append(delivery)
        } else {
            deliver(delivery)
        }
    }

    /// Runs `delivery`, then everything it caused to be queued; the caller knows ``isIdle``.
    @inlinable
    func deliver(_ delivery: () -> Void) {
        isDelivering = true
        delivery()
        if queuedDeliveries.isEmpty {
            isDelivering = false
        } else {
            drainQueue()
        }
    }

    /// Runs queued deliveries in order (each may queue more), then marks delivery finished.
    @usableFromInline
    func drainQueue() {
        var index = 0
        while index < queuedDeliveries.count {
            let next = queuedDeliveries[index]
            index += 1
            next()
        }
        queuedDeliveries.removeAll(keepingCapacity: false)
        isDelivering = false
    }

    private func endBatch() {
        guard !batchFlushes.isEmpty else { return }
        let flushes = batchFlushes
        batchFlushes.removeAll()
        if isDelivering {
            queuedDeliveries.append(contentsOf: flushes)
        } else {
            deliver {
                for flush in flushes { flush() }
            }
        }
    }
}
