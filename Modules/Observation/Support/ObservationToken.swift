/// Keeps one observation alive: cancel it, or let the last reference go, and the observation ends.
///
/// A token refers to what it observes *weakly*, so holding a token never keeps a model alive,
/// and the model holds no reference to the token, so observing never keeps an observer alive.
/// Keep tokens in the object that owns the observation (an array of tokens in a presenter is
/// typical); when that object is deallocated its observations end with it.
///
/// **Ending, from any thread.** On the thread that delivers, once ``cancel()`` returns (or the
/// last reference to the token is gone) the handler is not called again, not even for the change
/// being delivered at that moment. From another thread the promise is weaker, as Combine's
/// `cancel()`'s is: the `deinit` of a `@MainActor` object is not isolated, and runs wherever its
/// last reference goes (a detached task, a task group's child), so its tokens may end there while
/// the main actor delivers. Then one call of the handler that the delivering thread had already
/// decided on (it is running, or about to start) may still run after ``cancel()`` returned; it
/// is the last, and no call is made for a change that begins after ``cancel()`` returned. So a
/// handler must not rely on its observer being alive: capture the observer weakly
/// (`[weak self]`), or observe with a target, which is held weakly; never `unowned`. The token
/// removes the observation, handler and all, at once, unless the owner is using the property or
/// channel at that moment; then the owner removes it before the next handler it calls, or at the
/// end of that use.
public final class ObservationToken {
    // Two fields and no more: a token is allocated per observation, and with these it fits the
    // allocator's 32-byte size class. A token made with `init(onCancel:)` gets its action
    // through a `CancelAction` source instead of a third field.
    private weak var source: (any ObservationSource)?
    private let id: ObservationID

    /// Whether ``cancel()`` was called or the observed object went away (for a token made with
    /// ``init(onCancel:)``, only whether it was cancelled).
    public var isCancelled: Bool { source == nil }

    init(source: any ObservationSource, id: ObservationID) {
        self.source = source
        self.id = id
    }

    /// A token for an observation that something else keeps (another observation system, a
    /// task): cancelling or releasing the token runs `onCancel`, once, on the thread that does it.
    ///
    /// - Parameter onCancel: Ends the observation; it may run on any thread.
    public init(onCancel: @escaping () -> Void) {
        let action = CancelAction(onCancel)
        self.source = action
        self.id = 0
    }

    /// Ends the observation; calling it again does nothing.
    ///
    /// Safe from any thread.
    public func cancel() {
        guard let source else { return }
        self.source = nil
        source.observationEnded(id)
    }

    /// Lets the token go without ending the observation, for registrations whose lifetime
    /// something else manages (a value stream ends its own).
    func detach() {
        (source as? CancelAction)?.discard()
        source = nil
    }

    deinit {
        cancel()
    }
}

/// The source behind a token made with an action, which it runs when the token cancels.
///
/// The token refers to its source weakly, so the action keeps itself alive until then; every
/// token is cancelled or detached at the latest when it is released, so the action never
/// outlives its token. Only the token touches it, and a token is used by one thread at a time.
private final class CancelAction: ObservationSource {
    private var action: (() -> Void)?
    private var keepAlive: CancelAction?

    init(_ action: @escaping () -> Void) {
        self.action = action
        keepAlive = self
    }

    func observationEnded(_ id: ObservationID) {
        let action = self.action
        discard()
        action?()
    }

    /// Lets the action go without running it.
    func discard() {
        action = nil
        keepAlive = nil
    }
}

/// Something that hands out ``ObservationToken``s and can end the observation behind one.
protocol ObservationSource: AnyObject {
    /// Says that the token of observation `id` ended it, on whatever thread that happened; an
    /// unknown id is ignored.
    ///
    /// The source removes it at once unless its owner is using it right now, and then leaves
    /// the removal to the owner (see `EndedObservations`).
    func observationEnded(_ id: ObservationID)
}

/// Identifies one observation within its source; ids only grow, so lists stay sorted by id.
@usableFromInline
typealias ObservationID = Int
