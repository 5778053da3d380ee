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
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Deliver the current value immediately, before `observe` returns.
    public static let initial = ObservationOptions(rawValue: 1 << 0)
    /// Deliver a notification before each change, carrying the old value, as well as after it.
    public static let prior = ObservationOptions(rawValue: 1 << 1)
    /// Include the value before the change.
    public static let old = ObservationOptions(rawValue: 1 << 2)
    /// Include the value after the change.
    public static let new = ObservationOptions(rawValue: 1 << 3)
}
