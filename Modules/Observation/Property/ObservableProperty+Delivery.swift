// The delivery machinery around `assign` and `notify` (ObservableProperty.swift): registering
// observers, delivering changes in order, batching them, and taking in observations ended on
// other threads. Read it after ObservableProperty.swift, which has the path of a change.

extension ObservableProperty {
    /// One observer: what it asked for, and its handler.
    @usableFromInline
    struct Observer {
        @usableFromInline let options: ObservationOptions
        @usableFromInline let handler: (ObservedChange<Value>) -> Void
    }

    /// What the delivery machinery keeps besides the value and the observers.
    ///
    /// Exclusivity of this and of `storage` is checked statically, not at run time: every access
    /// is instantaneous (values are copied out before any handler or equality test runs), so no
    /// two accesses can overlap.
    @usableFromInline
    struct Bookkeeping {
        /// How many observers asked for ``ObservationOptions/prior``, so a change can skip the
        /// check.
        @usableFromInline var priorObserverCount = 0
        /// How many observers asked for ``ObservationOptions/old``, so `modify(_:)` knows
        /// whether the old value must be kept.
        @usableFromInline var oldValueObserverCount = 0
        @usableFromInline var nextID: ObservationID = 0
        /// How deep the owner's uses of the observers are nested (a handler that changes the
        /// property again); the outermost takes the exclusion (see `EndedObservations`).
        @usableFromInline var useDepth = 0
        /// The next id when the property last changed in the open batch: later observers do not
        /// hear the batch's change.
        @usableFromInline var batchChangeLimit: ObservationID = 0
        // The fields sized by `Value` come last, so the counters above sit at fixed offsets.
        /// The value before the open batch, once this property has changed in it.
        @usableFromInline var valueBeforeBatch: Value?
        /// The value each observer added during the open batch, after the property changed in
        /// it, started from.
        @usableFromInline var startedDuringBatch: [ObservationID: Value] = [:]
        /// How to finish each value stream still being consumed.
        @usableFromInline var streams: [ObservationID: () -> Void] = [:]

        @usableFromInline init() {}
    }

    /// The number of live observations, after taking in those ended elsewhere.
    func liveObservationCount() -> Int {
        beginUse()
        defer { endUse() }
        removeEndedObservations()
        return observers.count
    }

    /// Ends every value stream still being consumed (the property is going away).
    func finishStreams() {
        for finish in books.streams.values { finish() }
    }

    /// Registers the handler that `makeHandler` builds for the observation's id, so a handler
    /// that must end its own observation (a stream that terminated, a target that went away)
    /// is told which one it is instead of guessing the next id.
    func register(
        options: ObservationOptions,
        _ makeHandler: (ObservationID) -> (ObservedChange<Value>) -> Void
    ) -> ObservationToken {
        beginUse()
        defer { endUse() }
        removeEndedObservations()
        let id = books.nextID
        books.nextID += 1
        let handler = makeHandler(id)
        observers.append(Observer(options: options, handler: handler), id: id)
        if options.contains(.prior) { books.priorObserverCount += 1 }
        if options.contains(.old) { books.oldValueObserverCount += 1 }
        // Added after the property changed in the open batch: the batch's change, for this
        // observer, starts from the value it sees now.
        if books.valueBeforeBatch != nil { books.startedDuringBatch[id] = storage }
        let token = ObservationToken(source: self, id: id)
        if options.contains(.initial) {
            handler(
                ObservedChange(
                    kind: .initial, oldValue: nil, newValue: options.contains(.new) ? storage : nil)
            )
        }
        return token
    }

    /// Tells observers that asked for ``ObservationOptions/prior`` that the value is about to change.
    @usableFromInline
    func notifyPrior() {
        beginUse()
        defer { endUse() }
        let current = storage
        observers.forEachObserver(
            registeredBefore: books.nextID, endedElsewhere: ended,
            removeEnded: removeEndedObservations
        ) { _, observer in
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
            if books.valueBeforeBatch == nil {
                if books.priorObserverCount > 0 { notifyPrior() }
                books.valueBeforeBatch = storage
                coordinator.deferUntilBatchEnds { [self] in flushBatch() }
            }
            storage = newValue
            books.batchChangeLimit = books.nextID
        } else {
            if books.priorObserverCount > 0 { notifyPrior() }
            let oldValue = storage
            storage = newValue
            let limit = books.nextID
            coordinator.deliverOrQueue { [self] in
                notify(from: oldValue, to: newValue, registeredBefore: limit)
            }
        }
    }

    /// Delivers the batch's net change to each observer registered before the property last
    /// changed in it.
    ///
    /// Each hears it from the value it started from: the value before the batch, or,
    /// for an observer added during the batch after a change, the value it saw then. An observer
    /// whose starting value equals the final one hears nothing.
    private func flushBatch() {
        beginUse()
        defer { endUse() }
        guard let valueBefore = books.valueBeforeBatch else { return }
        books.valueBeforeBatch = nil
        let started = books.startedDuringBatch
        books.startedDuringBatch = [:]
        let newValue = storage
        let isNetChange = isDuplicate.map { !$0(valueBefore, newValue) } ?? true
        observers.forEachObserver(
            registeredBefore: books.batchChangeLimit, endedElsewhere: ended,
            removeEnded: removeEndedObservations
        ) { id, observer in
            if let startedFrom = started[id] {
                if let isDuplicate, isDuplicate(startedFrom, newValue) { return }
                observer.deliver(from: startedFrom, to: newValue)
            } else if isNetChange {
                observer.deliver(from: valueBefore, to: newValue)
            }
        }
    }

    /// Removes the observations whose tokens ended them since the last call, on any thread, and
    /// lets their handlers go.
    @usableFromInline
    func removeEndedObservations() {
        ended.removeWaiting(removeObservation)
    }

    /// Removes one observation; for whoever holds the exclusion.
    func removeObservation(_ id: ObservationID) {
        var released: [Any] = []
        removeObservation(id, releasingInto: &released)
    }

    /// Removes one observation, handing what it held (its box, a stream's ending) to `released`.
    private func removeObservation(_ id: ObservationID, releasingInto released: inout [Any]) {
        guard let removed = observers.remove(id, releasingInto: &released) else { return }
        if removed.options.contains(.prior) { books.priorObserverCount -= 1 }
        if removed.options.contains(.old) { books.oldValueObserverCount -= 1 }
        if let finish = books.streams.removeValue(forKey: id) { released.append(finish) }
    }

    /// Marks the start of a use of the observers by the owner; the outermost use takes the
    /// exclusion, waiting out a token that holds it for a removal.
    @inlinable
    func beginUse() {
        if books.useDepth == 0 { ended.acquire() }
        books.useDepth += 1
    }

    /// Marks the end of a use; the outermost takes in what was ended meanwhile and gives the
    /// exclusion back.
    @inlinable
    func endUse() {
        // A loop: letting a removed handler go may end another observation of this property.
        while books.useDepth == 1 && ended.mayHaveWaiting { removeEndedObservations() }
        books.useDepth -= 1
        if books.useDepth == 0 { ended.release() }
    }
}

extension ObservableProperty: ObservationSource {
    /// Called by a token, on any thread, to end observation `id`.
    ///
    /// Removed at once if the owner is not using the observers right now, else left for the
    /// owner, who removes it before the next handler it calls. The handler is let go after the
    /// exclusion is given back.
    func observationEnded(_ id: ObservationID) {
        ended.end(id) { id, released in removeObservation(id, releasingInto: &released) }
    }
}

extension ObservableProperty {
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
        beginUse()
        defer { endUse() }
        removeEndedObservations()
        guard coordinator.isIdle, books.priorObserverCount == 0, books.oldValueObserverCount == 0
        else {
            update(edit)
            return
        }
        edit(&storage)
        guard !observers.isEmpty else { return }
        let newValue = storage
        let limit = books.nextID
        // No observer receives the old value, so the new one stands in for it.
        coordinator.deliver { notify(from: newValue, to: newValue, registeredBefore: limit) }
    }
}
