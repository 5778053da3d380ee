public import MVCObservation
public import Observation
import Synchronization

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Observable where Self: AnyObject & Sendable {
    /// Calls `handler` with each change of one property of an `@Observable` object, with its old
    /// and new values: the project's handler API (one handler per property, typed values,
    /// tokens) on Apple's Observation.
    ///
    /// ```swift
    /// @Observable @MainActor final class Lamp { var isOn = false; var brightness = 0 }
    /// let lamp = Lamp()
    /// let token = lamp.observe(\.isOn) { change in
    ///     print("was \(change.oldValue == true), now \(change.newValue == true)")
    /// }
    /// ```
    ///
    /// **When it is delivered.** Apple's Observation tells that a property *will* change, not its
    /// new value. So the handler runs after the change, on the main actor, at its next turn: all
    /// the assignments made in one turn are delivered as one change, from the value last
    /// delivered to the value now; assignments that end where they started deliver nothing. This
    /// differs from `ObservableProperty`, which delivers every assignment at once. The
    /// ``/MVCObservation/ObservationOptions/prior`` option has no equivalent and is ignored; with
    /// ``/MVCObservation/ObservationOptions/initial`` the handler runs once before this method returns.
    ///
    /// **Lifetimes**, as with the project's own properties: the token ends the observation when
    /// cancelled or released; the object is held weakly, and the observation ends with it. (No
    /// handler runs after cancelling; Apple's registrar lets the registration go at the
    /// property's next change, since Observation has no way to withdraw one earlier.)
    ///
    /// - Parameters:
    ///   - keyPath: The property to observe; only what it reads is tracked, so changes to the
    ///     object's other properties are not delivered.
    ///   - options: Which values to deliver; see ``/MVCObservation/ObservationOptions``.
    ///   - handler: Called on the main actor with each change.
    /// - Returns: The token that keeps the observation alive.
    @MainActor
    public func observe<Value: Equatable & Sendable>(
        _ keyPath: KeyPath<Self, Value>,
        options: ObservationOptions = [.old, .new],
        _ handler: @escaping @MainActor (ObservedChange<Value>) -> Void
    ) -> ObservationToken {
        let tracker = PropertyTracker(
            object: self, keyPath: keyPath, options: options, handler: handler)
        if options.contains(.initial) {
            handler(
                ObservedChange(
                    kind: .initial, oldValue: nil,
                    newValue: options.contains(.new) ? tracker.lastValue : nil))
        }
        return ObservationToken { tracker.cancel() }
    }
}

/// Follows one property of an `@Observable` object: registers for its next change, and when it
/// comes, delivers old and new on the main actor and registers again.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
final class PropertyTracker<Object: Observable & AnyObject & Sendable, Value: Equatable & Sendable>
{
    private weak var object: Object?
    private let keyPath: KeyPath<Object, Value>
    private let options: ObservationOptions
    private let handler: @MainActor (ObservedChange<Value>) -> Void
    /// Set by ``cancel()``, from whatever thread releases the token.
    private let isCancelled = Atomic(false)
    /// The value last delivered (or read when observing began).
    private(set) var lastValue: Value

    init(
        object: Object, keyPath: KeyPath<Object, Value>, options: ObservationOptions,
        handler: @escaping @MainActor (ObservedChange<Value>) -> Void
    ) {
        self.object = object
        self.keyPath = keyPath
        self.options = options
        self.handler = handler
        self.lastValue = object[keyPath: keyPath]
        if let value = track() { lastValue = value }
    }

    /// Reads the property inside an observation, so its next change calls ``changed()``; `nil`
    /// once the object is gone or the observation was cancelled.
    private func track() -> Value? {
        guard !isCancelled.load(ordering: .acquiring), let object else { return nil }
        let keyPath = self.keyPath
        return withObservationTracking {
            object[keyPath: keyPath]
        } onChange: { [weak self] in
            // Called before the change, on the thread making it: the new value is read later,
            // on the main actor.
            Task { @MainActor [weak self] in self?.changed() }
        }
    }

    /// The property changed since the last turn: deliver old and new, and track again.
    private func changed() {
        guard let newValue = track() else { return }
        let oldValue = lastValue
        lastValue = newValue
        guard newValue != oldValue else { return }
        handler(
            ObservedChange(
                kind: .setting,
                oldValue: options.contains(.old) ? oldValue : nil,
                newValue: options.contains(.new) ? newValue : nil))
    }

    /// Ends the observation: no handler runs after this, and the tracker stops re-registering.
    nonisolated func cancel() {
        isCancelled.store(true, ordering: .releasing)
    }
}
