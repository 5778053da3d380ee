/// One editable field of an element, by name and key path: what generic code needs to compare,
/// copy and show the field without knowing its type.
///
/// ```swift
/// static let fields: [ElementField<Attraction>] = [
///     ElementField("name", \.name),
///     ElementField("notes", \.notes),
/// ]
/// ```
public struct ElementField<Element>: Sendable {
    /// The field's name: the stored property's, and the key a file stores it under.
    public let name: String
    private let equal: @Sendable (Element, Element) -> Bool
    private let transfer: @Sendable (Element, inout Element) -> Void
    private let show: @Sendable (Element) -> String

    /// Describes the field at `keyPath`, called `name`.
    ///
    /// - Parameters:
    ///   - name: The stored property's name (a test checks it against the type).
    ///   - keyPath: Where the field is.
    public init<Value: Equatable & Sendable>(
        _ name: String, _ keyPath: any WritableKeyPath<Element, Value> & Sendable
    ) {
        self.name = name
        self.equal = { $0[keyPath: keyPath] == $1[keyPath: keyPath] }
        self.transfer = { source, target in target[keyPath: keyPath] = source[keyPath: keyPath] }
        self.show = { String(describing: $0[keyPath: keyPath]) }
    }

    /// Whether `lhs` and `rhs` hold the same value in this field.
    public func isEqual(_ lhs: Element, _ rhs: Element) -> Bool {
        equal(lhs, rhs)
    }

    /// Sets this field of `target` to its value in `source`.
    public func copy(from source: Element, to target: inout Element) {
        transfer(source, &target)
    }

    /// The field's value in `element`, as a notice shows it.
    public func text(in element: Element) -> String {
        show(element)
    }
}
