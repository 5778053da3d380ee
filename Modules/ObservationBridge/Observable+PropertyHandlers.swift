public import MVCObservation
public import Observation
import Synchronization

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
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
    /// **When it is delivered.** The property is followed with Apple's `Observations` sequence,
    /// which reads it again after a change is made, on whatever thread. So the handler runs after
    /// the change, on the main actor, at a later turn: the assignments made in between are
    /// delivered as one change, from the value last delivered to the value now, and the handler
    /// ends on the latest value; assignments that end where they started deliver nothing. This
    /// differs from `ObservableProperty`, which delivers every assignment at once.
    ///
    /// **Changes made on other threads** reach the handler too, and it ends on the last one, if
    /// the object keeps each change whole to readers: once a change is announced (willSet), a
    /// read returns its new value or a later one, never the one before. An object does so by
    /// holding the lock that guards its storage across the whole `withMutation` call, announcing
    /// included (Apple's `Observations` reads when a change is announced, and hears nothing when
    /// it is stored); the main actor then waits for a writer that holds it, and code told of a
    /// change on the writer's thread must not wait for the main actor. For an object that stores a change after announcing it, outside its lock, the
    /// follower looks again after each notice, after pauses that double (up to an hour): a change
    /// held up for a while arrives within about twice that while. (An object whose storage has no lock cannot be
    /// changed off the main actor at all: that is a data race.) The
    /// ``/MVCObservation/ObservationOptions/prior`` option has no equivalent and is ignored; with
    /// ``/MVCObservation/ObservationOptions/initial`` the handler runs once before this method returns.
    ///
    /// **Lifetimes**, as with the project's own properties: the token ends the observation when
    /// cancelled or released, on any thread; the object is held weakly, and the observation ends
    /// with it, letting go of the handler though the token is kept (with a key path through a
    /// second observable object, once that object next changes or goes too). No handler runs
    /// after cancelling.
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
        let initialValue = self[keyPath: keyPath]
        if options.contains(.initial) {
            handler(
                ObservedChange(
                    kind: .initial, oldValue: nil,
                    newValue: options.contains(.new) ? initialValue : nil))
        }
        return PropertyFollower.follow(
            self, keyPath, from: initialValue, options: options, handler: handler)
    }
}

/// Follows one property of an `@Observable` object with Apple's `Observations` sequence, and
/// delivers old and new on the main actor.
///
/// `Observations` in Swift 6.3 re-reads the property when a change is *announced* (its willSet),
/// so a change made on another thread may not have landed when it reads: it reads an earlier
/// value, and no further notice comes when the change lands. An object that holds its storage's
/// lock from the announcement to the store makes that read wait for the change, which is the
/// contract `observe` states. For one that does not, the follower looks again within a
/// millisecond of every notice, then after pauses that double (2 ms, 4 ms…, up to an hour), until
/// the next notice comes or the observation ends, and delivers each change that lands: a change held up for a while
/// arrives within about twice that while (an hour more at most), and the looks after a notice
/// are a few dozen a day. (Tracking after the change, didSet, is not public in this toolchain.)
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
enum PropertyFollower {
    /// Starts a main-actor task that reads the property's values and hands each change to
    /// `handler`; the token it returns ends it from any thread.
    @MainActor
    static func follow<Object: Observable & AnyObject & Sendable, Value: Equatable & Sendable>(
        _ object: Object, _ keyPath: KeyPath<Object, Value>, from initialValue: Value,
        options: ObservationOptions,
        handler: @escaping @MainActor (ObservedChange<Value>) -> Void
    ) -> ObservationToken {
        // A key path is an immutable object, safe to read from any thread; it is not declared
        // `Sendable` only because a key path literal is inferred `Sendable` just with an upcoming
        // feature, and callers write literals. It is read only on the main actor here anyway.
        nonisolated(unsafe) let keyPath = keyPath
        // The closure inherits the main actor from this function. (Spelling out `@MainActor` and a
        // capture list here crashed the 6.3 compiler in a standalone build, or the program at
        // run time inside this package.)
        weak let weakObject = object
        let values = Observations<Value, Never>.untilFinished {
            guard let object = weakObject else { return .finish }
            return .next(object[keyPath: keyPath])
        }
        // Set when the token ends, so no handler runs after it even if a value is on its way.
        let isCancelled = CancellationFlag()
        let delivered = Delivered(initialValue)
        let held = HeldHandler(handler)
        /// Hands `newValue` to the handler, unless it is the value last delivered.
        @MainActor func deliver(_ newValue: Value) {
            guard !isCancelled.isSet, newValue != delivered.value, let handler = held.handler
            else { return }
            let oldValue = delivered.value
            delivered.value = newValue
            handler(
                ObservedChange(
                    kind: .setting,
                    oldValue: options.contains(.old) ? oldValue : nil,
                    newValue: options.contains(.new) ? newValue : nil))
        }
        /// Looks at the property again after pauses that double, and delivers each change that
        /// landed; a notice that came meanwhile starts the pauses over.
        @MainActor func lookAgain() async {
            var (pause, notices) = (Duration.milliseconds(1), delivered.notices)
            while true {
                delivered.looksWithinAMillisecond = pause <= .milliseconds(1)
                // Cancelled when the observation ends, or when a notice comes in a longer pause.
                do { try await Task.sleep(for: pause) } catch { return }
                guard !isCancelled.isSet, let object = weakObject else { return }
                let current = object[keyPath: keyPath]
                let isNew = current != delivered.value || delivered.notices != notices
                if current != delivered.value { deliver(current) }
                pause = isNew ? .milliseconds(1) : min(pause * 2, .seconds(3_600))
                notices = delivered.notices
            }
        }
        /// Ends the following once the object is gone, though the token is still held: the
        /// object's registrar keeps `lifetime` until the next change or until the object goes,
        /// and it tells which when the registrar lets it go.
        @MainActor func endWithTheObject() {
            guard let object = weakObject else {
                delivered.following?.cancel()
                return
            }
            let lifetime = ObjectLifetime { [weak delivered] in
                guard weakObject == nil else { return }
                Task { @MainActor in delivered?.following?.cancel() }
            }
            withObservationTracking {
                _ = object[keyPath: keyPath]
            } onChange: {
                _ = lifetime
            }
        }
        delivered.following = Task { @MainActor in
            // Its looks end with it, and the handler goes (the token may be kept for long).
            defer {
                delivered.lookingAgain?.cancel()
                held.letGo()
            }
            for await value in values {
                guard !isCancelled.isSet else { return }
                // A change let the last one go: the next change, or the object's end, lets this
                // one go.
                endWithTheObject()
                deliver(value)
                // `Observations` re-reads the property when it is about to change (willSet): a
                // change made on another thread may not have landed when it reads, and no
                // further notice comes when it does. So after each notice, whatever it read,
                // look again for a while (a new notice starts the looking over). A look already
                // due within a millisecond takes the notice in; only one further off is started
                // over (a new task for every notice took half the time of a delivery).
                delivered.notices &+= 1
                if !delivered.looksWithinAMillisecond {
                    delivered.lookingAgain?.cancel()
                    delivered.lookingAgain = Task { @MainActor in await lookAgain() }
                }
            }
        }
        let following = delivered.following
        return ObservationToken {
            isCancelled.set()
            held.letGo()
            following?.cancel()
        }
    }
}

/// The value a follower last delivered, the task that follows, and its look for a change that
/// lands late.
@MainActor
private final class Delivered<Value> {
    var value: Value
    var following: Task<Void, Never>?
    var lookingAgain: Task<Void, Never>?
    /// The notices that came so far, and whether the next look is due within a millisecond.
    var notices = 0
    var looksWithinAMillisecond = false

    init(_ value: Value) {
        self.value = value
    }
}

/// Runs `ended` when let go, on whichever thread lets it go: kept by an object's registrar, it
/// is let go at the object's next change or at its end.
private final class ObjectLifetime: Sendable {
    private let ended: @Sendable () -> Void

    init(_ ended: @escaping @Sendable () -> Void) {
        self.ended = ended
    }

    deinit { ended() }
}

/// The handler, until the token ends: let go then, on the thread that ends it, not when the
/// following tasks next run on the main actor (under load, a second or more later).
///
/// Guarded by an atomic flag spun on for a read or a take (not `Mutex`: ThreadSanitizer cannot
/// see its ordering on Linux); the handler's captures are freed outside it.
private final class HeldHandler<Value>: @unchecked Sendable {
    typealias Handler = @MainActor (ObservedChange<Value>) -> Void
    private let busy = Atomic(false)
    private var held: Handler?

    init(_ handler: @escaping Handler) { held = handler }

    /// The handler, or `nil` once let go.
    var handler: Handler? { exclusively { held } }

    /// Lets the handler go.
    func letGo() {
        let gone = exclusively { () -> Handler? in
            defer { held = nil }
            return held
        }
        withExtendedLifetime(gone) {}
    }

    private func exclusively<Result>(_ body: () -> Result) -> Result {
        while !busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
        {}
        defer { busy.store(false, ordering: .releasing) }
        return body()
    }
}

/// A flag one thread sets and another reads.
final class CancellationFlag: Sendable {
    private let flag = Atomic(false)

    /// Whether ``set()`` was called.
    var isSet: Bool { flag.load(ordering: .acquiring) }

    /// Sets the flag.
    func set() {
        flag.store(true, ordering: .releasing)
    }
}
