/// One observable property of a model object: a value, and the handlers that hear it change.
///
/// A model exposes each property it wants observed as an `ObservableProperty`, so that every
/// property is observed on its own, with its own handler: there is no single callback that has
/// to work out which property changed.
///
/// ```swift
/// let isOn = ObservableProperty(false)
/// let token = isOn.observe(options: [.old, .new]) { change in
///     print("was \(change.oldValue == true), now \(change.newValue == true)")
/// }
/// isOn.value = true  // prints "was false, now true"
/// ```
///
/// The handler is typed by the property's value, so a handler for the wrong property, or one
/// that expects the wrong type, does not compile. To call a method of an object instead, see
/// `observe(_:options:action:)`.
///
/// **Equal values.** When `Value` is `Equatable`, assigning a value equal to the current one is
/// not a change: nothing is stored and nobody is notified. Other values notify on every
/// assignment, since there is no way to tell.
///
/// **Who hears what.** An observer hears the changes made after it was added, each once, in
/// order. A change waiting to be delivered when the observer is added (a handler changed the
/// value, or a batch is open) is not delivered to it: it has the new value already, through
/// ``ObservationOptions/initial`` or by reading ``value``.
///
/// **Lifetimes.** An observation ends when its ``ObservationToken`` is cancelled or released, on
/// any thread; its handler is not called after that. The property keeps no reference to the
/// token, and the token refers to the property weakly, so an observation keeps neither side alive.
/// The property lets go of an ended observation's handler at once, or, when the token ends while
/// the owner is using the property on another thread, as soon as that use ends; never while
/// that handler is being called. A handler that
/// captures its observer strongly keeps it alive until then: capture `[weak self]`, or observe
/// with a target, which is held weakly.
///
/// **Ordering and reentrancy** are the ``ChangeCoordinator``'s: give all the properties of a model
/// one coordinator to batch their changes and deliver them in order.
///
/// Not thread-safe: use a property from the isolation domain of the model that owns it.
public final class ObservableProperty<Value> {
    /// Creates a property that notifies on every assignment.
    ///
    /// - Parameters:
    ///   - initialValue: The value before any change.
    ///   - coordinator: The coordinator of the model this property belongs to; share one among
    ///     the properties of a model to batch and order their changes together.
    @inlinable
    public init(_ initialValue: Value, coordinator: ChangeCoordinator = ChangeCoordinator()) {
        self.storage = initialValue
        self.isDuplicate = nil
        self.coordinator = coordinator
    }

    /// Creates a property that ignores assignments of a value equal to the current one.
    ///
    /// - Parameters:
    ///   - initialValue: The value before any change.
    ///   - coordinator: The coordinator of the model this property belongs to; share one among
    ///     the properties of a model to batch and order their changes together.
    @inlinable
    public init(_ initialValue: Value, coordinator: ChangeCoordinator = ChangeCoordinator())
    where Value: Equatable {
        // Inlinable so that the equality test is specialized for `Value` where the property is
        // made, instead of going through the generic `Equatable` witness on every assignment.
        self.storage = initialValue
        self.isDuplicate = { $0 == $1 }
        self.coordinator = coordinator
    }

    deinit {
        finishStreams()
    }

    /// The current value; assigning a new one notifies the observers.
    ///
    /// - Complexity: O(*n*) to notify *n* observers; O(1) when nobody observes.
    @inlinable
    public var value: Value {
        get { storage }
        set { assign(newValue) }
    }

    /// The number of live observations, counting value streams still being consumed.
    public var observationCount: Int { liveObservationCount() }

    /// Calls `handler` whenever the value changes.
    ///
    /// - Parameters:
    ///   - options: What to deliver and when; see ``ObservationOptions``. With
    ///     ``ObservationOptions/initial`` the handler runs once before this method returns.
    ///   - handler: Called with each change, on the caller's isolation domain.
    /// - Returns: The token that keeps the observation alive; keep it for as long as you observe.
    public func observe(
        options: ObservationOptions = [.old, .new],
        _ handler: @escaping (ObservedChange<Value>) -> Void
    ) -> ObservationToken {
        register(options: options) { _ in handler }
    }

    // What the property holds: its value, how it tells equal values apart, its model's
    // coordinator, and its observers. The rest is the delivery machinery's bookkeeping
    // (ObservableProperty+Delivery.swift, which also says why exclusivity is checked statically).
    @exclusivity(unchecked) @usableFromInline var storage: Value
    @usableFromInline let isDuplicate: ((Value, Value) -> Bool)?
    @usableFromInline let coordinator: ChangeCoordinator
    @usableFromInline let observers = ObserverList<Observer>()
    @usableFromInline let ended = EndedObservations()
    @exclusivity(unchecked) @usableFromInline var books = Bookkeeping()
}

extension ObservableProperty {
    /// Applies several edits to the value as one change, so observers hear it once.
    ///
    /// ```swift
    /// viewState.update { state in
    ///     state.label = "Saved"
    ///     state.isSaveEnabled = false
    /// }
    /// ```
    ///
    /// - Parameter edit: Edits a copy of the value; the copy is then assigned.
    public func update(_ edit: (inout Value) throws -> Void) rethrows {
        var copy = storage
        try edit(&copy)
        value = copy
    }
}

// MARK: How a change reaches its handlers

// Setting `value` calls `assign`. An equal value stops there. Otherwise the new value is stored
// and the model's coordinator runs `notify` at once, or, while another change is being delivered
// or a batch is open, after it (`storeWhileBusy`, in +Delivery). `notify` goes over the observers
// registered before the change and calls each one's handler, with the values it asked for.
// Everything else (prior notices, batches, observations ended on other threads) is in
// ObservableProperty+Delivery.swift.
extension ObservableProperty {
    /// Assigns `newValue` and delivers the change: at once when nothing else is being
    /// delivered, else queued behind what is (or kept for the open batch's end).
    @inlinable
    func assign(_ newValue: Value) {
        // Optional chaining, not `if let`: it calls the stored closure without copying it,
        // which saves a retain and a release of its context on every assignment.
        if isDuplicate?(storage, newValue) == true { return }
        beginUse()
        defer { endUse() }
        if coordinator.isIdle {
            if ended.mayHaveWaiting { removeEndedObservations() }
            if books.priorObserverCount > 0 {
                notifyPrior()
                // A prior handler may have assigned the property: that change was delivered
                // in full, so this one starts from the value it left.
                if isDuplicate?(storage, newValue) == true { return }
            }
            let oldValue = storage
            storage = newValue
            guard !observers.isEmpty else { return }
            let limit = books.nextID
            coordinator.deliver {
                notify(from: oldValue, to: newValue, registeredBefore: limit)
            }
        } else {
            storeWhileBusy(newValue)
        }
    }

    /// Delivers a change to every observer registered before `limit` (the next id when the
    /// change was made), each given the values its options asked for.
    @inlinable
    func notify(from oldValue: Value, to newValue: Value, registeredBefore limit: ObservationID) {
        // A queued change may be delivered while another property of the model is in use.
        beginUse()
        defer { endUse() }
        observers.forEachObserver(
            registeredBefore: limit, endedElsewhere: ended, removeEnded: removeEndedObservations
        ) { _, observer in
            observer.deliver(from: oldValue, to: newValue)
        }
    }
}

extension ObservableProperty.Observer {
    /// Calls the handler with a change, with the values its options asked for.
    @inlinable
    func deliver(from oldValue: Value, to newValue: Value) {
        handler(
            ObservedChange(
                kind: .setting,
                oldValue: options.contains(.old) ? oldValue : nil,
                newValue: options.contains(.new) ? newValue : nil
            )
        )
    }
}
