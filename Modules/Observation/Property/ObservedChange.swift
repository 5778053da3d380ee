/// One notification about one property: what happened and, as the options asked, its values.
///
/// Which values are present follows Cocoa key-value observing:
///
/// | kind | ``oldValue`` | ``newValue`` |
/// | --- | --- | --- |
/// | ``Kind/initial`` | `nil` | the current value, if ``ObservationOptions/new`` |
/// | ``Kind/prior`` | the value about to be replaced, if ``ObservationOptions/old`` | `nil` |
/// | ``Kind/setting`` | the value before, if ``ObservationOptions/old`` | the value after, if ``ObservationOptions/new`` |
public struct ObservedChange<Value> {
    /// Why a handler is being called.
    public enum Kind: Sendable, Hashable {
        /// The observation was made with ``ObservationOptions/initial``; this is the current value.
        case initial
        /// The property is about to change (``ObservationOptions/prior``); the value is still the old one.
        case prior
        /// The property changed.
        case setting
    }

    /// Why the handler is being called.
    public let kind: Kind
    /// The value before the change, when the observation asked for ``ObservationOptions/old``.
    public let oldValue: Value?
    /// The value after the change, when the observation asked for ``ObservationOptions/new``.
    public let newValue: Value?

    /// Creates a change notification; the property builds these, tests may too.
    @inlinable
    public init(kind: Kind, oldValue: Value?, newValue: Value?) {
        self.kind = kind
        self.oldValue = oldValue
        self.newValue = newValue
    }

    /// Whether this notification comes before the change rather than after it.
    @inlinable
    public var isPrior: Bool { kind == .prior }
}

extension ObservedChange: Sendable where Value: Sendable {}
extension ObservedChange: Equatable where Value: Equatable {}
