/// The observing half of an ``ObservableProperty``: read it and observe it, but not assign it.
///
/// A layer that owns some state (a store's saving status, a saver's last outcome) keeps the
/// property private and hands out its `readOnly` view, so a screen can follow the state but
/// cannot write `store.saving.value = .saved`; only the owner decides. It is the property
/// counterpart of ``UpdateSubscriptions``.
///
/// ```swift
/// final class Uploader {
///     private let progressProperty = ObservableProperty(0.0)
///     var progress: ReadOnlyProperty<Double> { progressProperty.readOnly }
/// }
/// let token = Uploader().progress.observe { change in print(change.newValue ?? 0) }
/// ```
public struct ReadOnlyProperty<Value> {
    private let property: ObservableProperty<Value>

    init(_ property: ObservableProperty<Value>) {
        self.property = property
    }

    /// The current value.
    public var value: Value { property.value }

    /// The number of live observations of the property.
    public var observationCount: Int { property.observationCount }

    /// Calls `handler` whenever the value changes; see ``ObservableProperty/observe(options:_:)``.
    ///
    /// - Parameters:
    ///   - options: What to deliver and when; see ``ObservationOptions``.
    ///   - handler: Called with each change, on the owner's isolation domain.
    /// - Returns: The token that keeps the observation alive.
    public func observe(
        options: ObservationOptions = [.old, .new],
        _ handler: @escaping (ObservedChange<Value>) -> Void
    ) -> ObservationToken {
        property.observe(options: options, handler)
    }

    /// Calls `action` on `target` with each change, for as long as both the token and the target
    /// live; the target is held weakly.
    ///
    /// - Parameters:
    ///   - target: The object whose method is called; held weakly.
    ///   - options: What to deliver and when.
    ///   - action: An instance method of `Target` that takes an ``ObservedChange``.
    /// - Returns: The token that keeps the observation alive.
    public func observe<Target: AnyObject>(
        _ target: Target,
        options: ObservationOptions = [.old, .new],
        action: @escaping (Target) -> (ObservedChange<Value>) -> Void
    ) -> ObservationToken {
        property.observe(target, options: options, action: action)
    }
}

extension ReadOnlyProperty where Value: Sendable {
    /// The property's values as an asynchronous sequence: the current value first, then each new
    /// one; see ``ObservableProperty/values(bufferingPolicy:)``.
    ///
    /// - Parameter bufferingPolicy: What to keep when values arrive faster than they are consumed.
    /// - Returns: A sequence of values, delivered on the consuming task.
    public func values(
        bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<Value> {
        property.values(bufferingPolicy: bufferingPolicy)
    }
}

extension ObservableProperty {
    /// A view of this property that can read and observe it but not assign it, for handing to
    /// others.
    public var readOnly: ReadOnlyProperty<Value> { ReadOnlyProperty(self) }
}
