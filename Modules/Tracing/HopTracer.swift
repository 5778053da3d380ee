/// A layer of an architecture, as a trace names it.
///
/// Tracing knows no particular app: a layer is just a name. The layers of an MVC app are
/// predefined (``view``, ``presenter``, ``store``...); an app with other layers names its own:
///
/// ```swift
/// extension TraceLayer {
///     static let cache = TraceLayer("cache")
/// }
/// ```
public struct TraceLayer: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The layer's name, as trace lines show it.
    public let rawValue: String

    /// Names a layer.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Names a layer.
    public init(_ name: String) {
        self.init(rawValue: name)
    }

    /// The layer's name.
    public var description: String { rawValue }
}

extension TraceLayer {
    /// The terminal front end: rendering and reading input.
    public static let view = TraceLayer("view")
    /// A headless presenter.
    public static let presenter = TraceLayer("presenter")
    /// An editing delegate.
    public static let delegate = TraceLayer("delegate")
    /// A facade that offers the operations of several managers.
    public static let facade = TraceLayer("facade")
    /// A store or manager that owns model state.
    public static let store = TraceLayer("store")
    /// The domain values.
    public static let model = TraceLayer("model")
    /// Change observation, carrying a change to its observers.
    public static let observation = TraceLayer("observation")
    /// Persistence: the saver and the document file.
    public static let persistence = TraceLayer("persistence")
    /// The file system.
    public static let disk = TraceLayer("disk")
    /// Something outside the app that a store talks to: a server, a folder, a simulation.
    public static let service = TraceLayer("service")
}

/// One message crossing from one layer to another.
public struct Hop: Sendable, Hashable, CustomStringConvertible {
    /// The layer the message leaves.
    public let from: TraceLayer
    /// The layer the message reaches.
    public let to: TraceLayer
    /// What the message says, in a few words.
    public let message: String

    /// Creates a hop.
    public init(from: TraceLayer, to: TraceLayer, message: String) {
        self.from = from
        self.to = to
        self.message = message
    }

    /// The hop as a trace line: `presenter → model: set switchA = on`.
    public var description: String { "\(from.rawValue) → \(to.rawValue): \(message)" }
}

/// Where the layers report hops, so a reader can watch a change travel through the architecture.
///
/// Each layer that is handed a tracer reports the hops it makes; the samples print them with
/// `--trace`, and tests collect them. A disabled tracer does not even build the message.
public struct HopTracer: Sendable {
    private let sink: (@Sendable (Hop) -> Void)?

    /// A tracer that records nothing.
    public static var disabled: HopTracer { HopTracer(sink: nil) }

    /// Creates a tracer that hands each hop to `sink`.
    ///
    /// - Parameter sink: Receives each hop, on the isolation domain of the layer reporting it.
    public init(_ sink: @escaping @Sendable (Hop) -> Void) {
        self.sink = sink
    }

    private init(sink: (@Sendable (Hop) -> Void)?) {
        self.sink = sink
    }

    /// Reports a hop from one layer to another.
    ///
    /// - Parameters:
    ///   - from: The layer the message leaves.
    ///   - to: The layer the message reaches.
    ///   - message: What the message says; not evaluated when tracing is disabled.
    public func record(
        from: TraceLayer,
        to: TraceLayer,
        _ message: @autoclosure () -> String
    ) {
        guard let sink else { return }
        sink(Hop(from: from, to: to, message: message()))
    }
}
