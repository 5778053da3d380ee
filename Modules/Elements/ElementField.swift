/// One editable field of an element, by name and key path: what generic code needs to compare,
/// copy, check, store, show and edit the field without knowing its type.
///
/// ```swift
/// static let fields: [ElementField<Book>] = [
///     ElementField(
///         "title", \.title, rule: { $0.isEmpty ? [FieldProblem("a book needs a title")] : [] }),
///     ElementField(
///         "pages", \.pages,
///         parse: { text in
///             Int(text).map { .success($0) }
///                 ?? .failure(FieldProblem("“\(text)” is not a number"))
///         },
///         listed: true),
/// ]
/// ```
///
/// A field an editor types as text is read back with the field's `parse` (a `String` field needs
/// none).
public final class ElementField<Element: ListElement>: Sendable {
    /// What a field's value is, for a store that types what it keeps (a database column another
    /// program can sort and sum): taken from the value's type.
    public enum ValueKind: Sendable, Equatable {
        /// Anything else, kept as the text ``ElementField/text(in:)`` gives.
        case text
        /// A whole number that fits in 64 signed bits (`Int`, `Int32`, `UInt32`…); a wider one
        /// (`UInt64`) is ``text``, so that no value is rounded.
        case integer
        /// A floating-point number of at most 64 bits (`Double`, `Float`).
        case real
        /// `true` or `false`.
        case boolean
    }

    /// The field's name: the stored property's, and the key a file stores it under.
    public let name: String
    /// What the field's value is.
    public let valueKind: ValueKind
    /// Whether a list's row shows the field after the element's title, unless it holds its
    /// default (``listed(in:)``); an editor shows every field.
    public let isListed: Bool
    /// Whether the value is text, which a row shows without the field's name.
    private let isText: Bool
    private let equal: @Sendable (Element, Element) -> Bool
    private let transfer: @Sendable (Element, inout Element) -> Void
    private let show: @Sendable (Element) -> String
    @usableFromInline let check: @Sendable (Element) -> [Element.Problem]
    @usableFromInline let read: @Sendable (String, inout Element) -> Element.Problem?
    private let decodeValue:
        @Sendable (KeyedDecodingContainer<FieldKey>, inout Element) throws -> Void
    private let encodeValue:
        @Sendable (Element, inout KeyedEncodingContainer<FieldKey>) throws -> Void

    /// Keeps a field's closures, made by the public initializers: those are inlinable, so that
    /// the closures are compiled where the field is described, for its element and value.
    @usableFromInline
    init(
        name: String, valueKind: ValueKind, isListed: Bool, isText: Bool,
        equal: @escaping @Sendable (Element, Element) -> Bool,
        transfer: @escaping @Sendable (Element, inout Element) -> Void,
        show: @escaping @Sendable (Element) -> String,
        check: @escaping @Sendable (Element) -> [Element.Problem],
        read: @escaping @Sendable (String, inout Element) -> Element.Problem?,
        decodeValue:
            @escaping @Sendable (KeyedDecodingContainer<FieldKey>, inout Element) throws
            -> Void,
        encodeValue:
            @escaping @Sendable (Element, inout KeyedEncodingContainer<FieldKey>) throws
            -> Void
    ) {
        self.name = name
        self.valueKind = valueKind
        self.isListed = isListed
        self.isText = isText
        self.equal = equal
        self.transfer = transfer
        self.show = show
        self.check = check
        self.read = read
        self.decodeValue = decodeValue
        self.encodeValue = encodeValue
    }

    /// Describes a text field at `keyPath`, called `name`: what is typed is its value.
    ///
    /// - Parameters:
    ///   - name: The stored property's name (a test checks it against the type).
    ///   - keyPath: Where the field is.
    ///   - listed: Whether a list's row shows it after the element's title; no by default.
    ///   - rule: Every rule the field's value breaks; none by default.
    @inlinable
    public convenience init(
        _ name: String,
        _ keyPath: any WritableKeyPath<Element, String> & Sendable,
        listed: Bool = false,
        rule: @escaping @Sendable (String) -> [Element.Problem] = { _ in [] }
    ) {
        self.init(name, keyPath, parse: { .success($0) }, listed: listed, rule: rule)
    }

    /// Describes the field at `keyPath`, called `name`, whose value shows as its `description`.
    ///
    /// - Parameters:
    ///   - name: The stored property's name (a test checks it against the type).
    ///   - keyPath: Where the field is.
    ///   - parse: Reads the value from what an editor typed (trimmed), or says why it cannot; the
    ///     value's `description` is what the editor shows, so `parse` must read it back.
    ///   - listed: Whether a list's row shows it after the element's title; no by default.
    ///   - rule: Every rule the field's value breaks; none by default.
    @inlinable
    public convenience init<Value: Equatable & Sendable & Codable & LosslessStringConvertible>(
        _ name: String,
        _ keyPath: any WritableKeyPath<Element, Value> & Sendable,
        parse: @escaping @Sendable (String) -> Result<Value, Element.Problem>,
        listed: Bool = false,
        rule: @escaping @Sendable (Value) -> [Element.Problem] = { _ in [] }
    ) {
        self.init(
            name, keyPath, text: { $0.description }, parse: parse, listed: listed, rule: rule)
    }

    /// Describes the field at `keyPath`, called `name`, of any value a file can hold: an
    /// optional, a `Date`, a type of your own, shown as `text` gives it.
    ///
    /// A database that keeps a column per field stores such a value as its text (a whole number,
    /// a real or a Boolean keep their own column types), so `parse` must read back what `text`
    /// gives, an empty text included if `text` gives one (an optional's `nil`, say).
    ///
    /// - Parameters:
    ///   - name: The stored property's name (a test checks it against the type).
    ///   - keyPath: Where the field is.
    ///   - text: The value as an editor shows it, and as `parse` reads it back.
    ///   - parse: Reads the value from what an editor typed (trimmed), or says why it cannot.
    ///   - listed: Whether a list's row shows it after the element's title; no by default.
    ///   - rule: Every rule the field's value breaks; none by default.
    @inlinable
    public convenience init<Value: Equatable & Sendable & Codable>(
        _ name: String,
        _ keyPath: any WritableKeyPath<Element, Value> & Sendable,
        text: @escaping @Sendable (Value) -> String,
        parse: @escaping @Sendable (String) -> Result<Value, Element.Problem>,
        listed: Bool = false,
        rule: @escaping @Sendable (Value) -> [Element.Problem] = { _ in [] }
    ) {
        let valueKind: ValueKind =
            switch Value.self {
            case let integer as any FixedWidthInteger.Type
            where integer.bitWidth < 64 || (integer.bitWidth == 64 && integer.isSigned):
                .integer
            case let real as any BinaryFloatingPoint.Type
            where real == Double.self || real == Float.self:
                .real
            case is Bool.Type: .boolean
            default: .text
            }
        let key = FieldKey(name)
        // A stored property is read and written where it lies in the element, as a property
        // access is: applying a key path costs a lookup each time, which opening a long list
        // pays for every field of every row. Any other key path is applied.
        let offset = MemoryLayout<Element>.offset(of: keyPath as PartialKeyPath<Element>)
        @Sendable func value(in element: Element) -> Value {
            guard let offset else { return element[keyPath: keyPath] }
            return withUnsafePointer(to: element) {
                UnsafeRawPointer($0).load(fromByteOffset: offset, as: Value.self)
            }
        }
        self.init(
            name: name, valueKind: valueKind, isListed: listed, isText: Value.self == String.self,
            equal: { value(in: $0) == value(in: $1) },
            transfer: { source, target in target[keyPath: keyPath] = value(in: source) },
            // The text an editor shows, and `parse` reads back.
            show: { text(value(in: $0)) },
            check: { rule(value(in: $0)) },
            read: { text, element in
                switch parse(text) {
                case .success(let parsed):
                    guard let offset else {
                        element[keyPath: keyPath] = parsed
                        return nil
                    }
                    withUnsafeMutablePointer(to: &element) {
                        (UnsafeMutableRawPointer($0) + offset)
                            .assumingMemoryBound(to: Value.self).pointee = parsed
                    }
                    return nil
                case .failure(let problem):
                    return problem
                }
            },
            decodeValue: { container, element in
                // A field the file does not have keeps the default: a new field needs no new
                // version. One it has must hold a value of the field's type (a null is refused,
                // not skipped, unless the type is an optional, whose `nil` it is).
                if container.contains(key) {
                    element[keyPath: keyPath] = try container.decode(Value.self, forKey: key)
                }
            },
            encodeValue: { element, container in
                try container.encode(element[keyPath: keyPath], forKey: key)
            })
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

    /// What a list's row shows of the field after `element`'s title: text as it is, any other
    /// value after the field's name ("rating 4"), nothing while the field holds its default
    /// (empty notes, an unrated 0).
    ///
    /// - Complexity: Makes `Element(blankWithID:)` to compare with, once per call.
    public func listed(in element: Element) -> String? {
        guard !equal(element, Element(blankWithID: element.id)) else { return nil }
        let text = show(element)
        return isText ? text : "\(name) \(text)"
    }

    /// Every rule the field breaks in `element`.
    @inlinable
    public func problems(in element: Element) -> [Element.Problem] {
        check(element)
    }

    /// Sets the field of `element` to the value `text` describes, as an editor typed it.
    ///
    /// - Returns: Why `text` is not a value of the field, if it is not; `element` is unchanged.
    @inlinable
    public func set(_ text: String, in element: inout Element) -> Element.Problem? {
        read(text, &element)
    }

    /// Reads the field from `container` into `element`, if the container has it.
    @usableFromInline
    func decode(from container: KeyedDecodingContainer<FieldKey>, into element: inout Element)
        throws
    {
        try decodeValue(container, &element)
    }

    /// Writes the field of `element` into `container`.
    @usableFromInline
    func encode(_ element: Element, into container: inout KeyedEncodingContainer<FieldKey>) throws {
        try encodeValue(element, &container)
    }
}

/// A field's name as a coding key.
public struct FieldKey: CodingKey, Sendable {
    /// The name.
    public let stringValue: String

    /// A key for the field called `name`.
    public init(_ name: String) {
        stringValue = name
    }

    /// A key for the field called `stringValue`.
    public init?(stringValue: String) {
        self.stringValue = stringValue
    }

    /// Fields are named, never numbered.
    public var intValue: Int? { nil }

    /// Fields are named, never numbered.
    public init?(intValue: Int) {
        nil
    }
}

extension ElementField where Element.Problem == FieldProblem {
    /// Describes the field at `keyPath`, called `name`, read from typed text by the value's own
    /// `init?(_:)`: text it cannot read is a ``FieldProblem`` that names the field.
    ///
    /// - Parameters:
    ///   - name: The stored property's name (a test checks it against the type).
    ///   - keyPath: Where the field is.
    ///   - listed: Whether a list's row shows it after the element's title; no by default.
    ///   - rule: Every rule the field's value breaks; none by default.
    @inlinable
    public convenience init<Value: Equatable & Sendable & Codable & LosslessStringConvertible>(
        _ name: String,
        _ keyPath: any WritableKeyPath<Element, Value> & Sendable,
        listed: Bool = false,
        rule: @escaping @Sendable (Value) -> [FieldProblem] = { _ in [] }
    ) {
        let parse: @Sendable (String) -> Result<Value, FieldProblem> = { text in
            // Not a number a file can hold: JSON has no NaN or infinity.
            if let real = Value(text) as? any BinaryFloatingPoint, !real.isFinite {
                return .failure(FieldProblem("the \(name) must be a finite number, not “\(text)”"))
            }
            return Value(text).map { .success($0) }
                ?? .failure(FieldProblem("the \(name) cannot be “\(text)”"))
        }
        self.init(name, keyPath, parse: parse, listed: listed, rule: rule)
    }
}
