/// What an observation asks to be told, with the meaning the options have in Cocoa
/// key-value observing.
///
/// - ``initial``: deliver the current value at once, while the observation is being made.
/// - ``prior``: deliver a notification *before* each change as well as after it.
/// - ``old``: include the value before the change in ``ObservedChange/oldValue``.
/// - ``new``: include the value after the change in ``ObservedChange/newValue``.
///
/// Without ``old`` or ``new`` the handler is still called; the change just carries no values.
public struct ObservationOptions: OptionSet, Sendable, Hashable {
    /// The bits of the set.
    public let rawValue: UInt8

    /// Creates a set of options from its raw bits.
    @inlinable
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Deliver the current value immediately, before `observe` returns.
    @inlinable public static var initial: ObservationOptions {
        ObservationOptions(rawValue: 1 << 0)
    }
    /// Deliver a notification before each change, carrying the old value, as well as after it.
    @inlinable public static var prior: ObservationOptions { ObservationOptions(rawValue: 1 << 1) }
    /// Include the value before the change.
    @inlinable public static var old: ObservationOptions { ObservationOptions(rawValue: 1 << 2) }
    /// Include the value after the change.
    @inlinable public static var new: ObservationOptions { ObservationOptions(rawValue: 1 << 3) }
}
