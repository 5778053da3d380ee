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
/// **Lifetimes.** The property keeps each handler until its ``ObservationToken`` is cancelled or
/// released (when that happens during a delivery of this property, until the delivery ends: a
/// handler being called is never freed under it). It keeps no reference to the token, and the token refers to the property weakly, so
/// an observation keeps neither side alive. A handler that captures its observer strongly does
/// keep it alive: capture `[weak self]`, or observe with a target, which is held weakly.
///
/// **Ordering and reentrancy** are the ``ChangeCoordinator``'s: give all the properties of a model
/// one coordinator to batch their changes and deliver them in order.
///
/// Not thread-safe: use a property from the isolation domain of the model that owns it.
public final class ObservableProperty<Value> {
    // Exclusivity: `storage`, `priorObserverCount` and `valueBeforeBatch` are checked statically,
    // not at run time. Every access is instantaneous (values are copied out before any handler or
    // equality test runs), so no two accesses can overlap.
    @exclusivity(unchecked) @usableFromInline var storage: Value
    @usableFromInline let isDuplicate: ((Value, Value) -> Bool)?
    @usableFromInline let coordinator: ChangeCoordinator
    @usableFromInline let observers = ObserverList<Observer>()
    /// How many observers asked for ``ObservationOptions/prior``, so a change can skip the check.
    @exclusivity(unchecked) @usableFromInline var priorObserverCount = 0
    /// How many observers asked for ``ObservationOptions/old``, so ``modify(_:)`` knows whether
    /// the old value must be kept.
    @usableFromInline var oldValueObserverCount = 0
    /// The value before the open batch, once this property has changed in it.
    @exclusivity(unchecked) @usableFromInline var valueBeforeBatch: Value?
    @usableFromInline var nextID: ObservationID = 0
    @usableFromInline var streams: [ObservationID: () -> Void] = [:]

    @usableFromInline
    struct Observer {
        @usableFromInline let options: ObservationOptions
        @usableFromInline let handler: (ObservedChange<Value>) -> Void
    }

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
        for finish in streams.values { finish() }
    }

    /// The current value; assigning a new one notifies the observers.
    ///
    /// - Complexity: O(*n*) to notify *n* observers; O(1) when nobody observes.
    @inlinable
    public var value: Value {
        get { storage }
        set {
            // Optional chaining, not `if let`: it calls the stored closure without copying it,
            // which saves a retain and a release of its context on every assignment.
            if isDuplicate?(storage, newValue) == true { return }
            if coordinator.isIdle {
                if priorObserverCount > 0 {
                    notifyPrior()
                    // A prior handler may have assigned the property: that change was delivered
                    // in full, so this one starts from the value it left.
                    if isDuplicate?(storage, newValue) == true { return }
                }
                let oldValue = storage
                storage = newValue
                guard !observers.isEmpty else { return }
                coordinator.deliver { notify(from: oldValue, to: newValue) }
            } else {
                storeWhileBusy(newValue)
            }
        }
    }

    /// The number of live observations, counting value streams still being consumed.
    public var observationCount: Int { observers.count }

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

    /// Registers the handler that `makeHandler` builds for the observation's id, so a handler
    /// that must end its own observation (a stream that terminated, a target that went away)
    /// is told which one it is instead of guessing the next id.
    func register(
        options: ObservationOptions,
        _ makeHandler: (ObservationID) -> (ObservedChange<Value>) -> Void
    ) -> ObservationToken {
        let id = nextID
        nextID += 1
        let handler = makeHandler(id)
        observers.append(Observer(options: options, handler: handler), id: id)
        if options.contains(.prior) { priorObserverCount += 1 }
        if options.contains(.old) { oldValueObserverCount += 1 }
        let token = ObservationToken(source: self, id: id)
        if options.contains(.initial) {
            handler(
                ObservedChange(
                    kind: .initial, oldValue: nil, newValue: options.contains(.new) ? storage : nil)
            )
        }
        return token
    }

    /// Delivers a change to every observer, each given the values its options asked for.
    @inlinable
    func notify(from oldValue: Value, to newValue: Value) {
        observers.forEachObserver { observer in
            let options = observer.options
            observer.handler(
                ObservedChange(
                    kind: .setting,
                    oldValue: options.contains(.old) ? oldValue : nil,
                    newValue: options.contains(.new) ? newValue : nil
                )
            )
        }
    }

    /// Tells observers that asked for ``ObservationOptions/prior`` that the value is about to change.
    @usableFromInline
    func notifyPrior() {
        let current = storage
        observers.forEachObserver { observer in
            guard observer.options.contains(.prior) else { return }
            observer.handler(
                ObservedChange(
                    kind: .prior,
                    oldValue: observer.options.contains(.old) ? current : nil,
                    newValue: nil
                )
            )
        }
    }

    /// Stores a value while a batch is open or another change is being delivered.
    @usableFromInline
    func storeWhileBusy(_ newValue: Value) {
        if coordinator.isBatching {
            if valueBeforeBatch == nil {
                if priorObserverCount > 0 { notifyPrior() }
                valueBeforeBatch = storage
                coordinator.deferUntilBatchEnds { [self] in flushBatch() }
            }
            storage = newValue
        } else {
            if priorObserverCount > 0 { notifyPrior() }
            let oldValue = storage
            storage = newValue
            coordinator.deliverOrQueue { [self] in notify(from: oldValue, to: newValue) }
        }
    }

    /// Delivers the batch's net change, unless the value ended where it started.
    private func flushBatch() {
        guard let oldValue = valueBeforeBatch else { return }
        valueBeforeBatch = nil
        let newValue = storage
        if let isDuplicate, isDuplicate(oldValue, newValue) { return }
        notify(from: oldValue, to: newValue)
    }
}

extension ObservableProperty: ObservationSource {
    func removeObservation(_ id: ObservationID) {
        guard let removed = observers.remove(id) else { return }
        if removed.options.contains(.prior) { priorObserverCount -= 1 }
        if removed.options.contains(.old) { oldValueObserverCount -= 1 }
        streams[id] = nil
    }
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

    /// Edits the value in place, as one change, without copying it when nobody needs the old one.
    ///
    /// ``update(_:)`` edits a copy, so a value holding a large array is copied whole on every
    /// change. When no observer asked for ``ObservationOptions/old`` or
    /// ``ObservationOptions/prior`` and no change is being delivered or batched, `modify` edits
    /// the stored value where it is, so changing one element of a large array costs O(1); it
    /// falls back to ``update(_:)`` otherwise. On the in-place path it always notifies (the edit
    /// is taken to be a change, since the old value is not kept to compare with); on the fallback
    /// an edit that leaves an `Equatable` value equal notifies nobody, as ``update(_:)`` does. The
    /// edit cannot throw, so the value is never left half edited.
    ///
    /// - Parameter edit: Edits the value; it must not read or assign this property.
    public func modify(_ edit: (inout Value) -> Void) {
        guard coordinator.isIdle, priorObserverCount == 0, oldValueObserverCount == 0 else {
            update(edit)
            return
        }
        edit(&storage)
        guard !observers.isEmpty else { return }
        let newValue = storage
        // No observer receives the old value, so the new one stands in for it.
        coordinator.deliver { notify(from: newValue, to: newValue) }
    }
}
