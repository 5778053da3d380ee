/// Keeps one observation alive: cancel it, or let the last reference go, and the observation ends.
///
/// A token refers to what it observes *weakly*, so holding a token never keeps a model alive,
/// and the model holds no reference to the token, so observing never keeps an observer alive.
/// Keep tokens in the object that owns the observation (an array of tokens in a presenter is
/// typical); when that object is deallocated its observations end with it.
///
/// Cancelling is immediate, even in the middle of a delivery: a cancelled observation's handler
/// is not called again, not even for the change being delivered at that moment.
public final class ObservationToken {
    // Two fields and no more: a token is allocated per observation, and with these it fits the
    // allocator's 48-byte size class. A token made with `init(onCancel:)` gets its action
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
    /// task): cancelling or releasing the token runs `onCancel`, once.
    ///
    /// - Parameter onCancel: Ends the observation.
    public init(onCancel: @escaping () -> Void) {
        let action = CancelAction(onCancel)
        self.source = action
        self.id = 0
    }

    /// Ends the observation; calling it again does nothing.
    public func cancel() {
        guard let source else { return }
        self.source = nil
        source.removeObservation(id)
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
/// outlives its token.
private final class CancelAction: ObservationSource {
    private var action: (() -> Void)?
    private var keepAlive: CancelAction?

    init(_ action: @escaping () -> Void) {
        self.action = action
        keepAlive = self
    }

    func removeObservation(_ id: ObservationID) {
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
    /// Removes the observation with the given id; an unknown id is ignored.
    func removeObservation(_ id: ObservationID)
}

/// Identifies one observation within its source; ids only grow, so lists stay sorted by id.
@usableFromInline
typealias ObservationID = Int
