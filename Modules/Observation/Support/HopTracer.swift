/// A layer of the architecture, as named in a trace.
public enum ArchitectureLayer: String, Sendable, Hashable, CaseIterable {
    /// The terminal front end: rendering and reading input.
    case view
    /// A headless presenter.
    case presenter
    /// An editing delegate.
    case delegate
    /// A store or manager that owns model state.
    case store
    /// The domain values.
    case model
    /// MVCObservation, carrying a change to its observers.
    case observation
    /// Something outside the app that a store talks to: a server, a folder, a simulation.
    case service
}

/// One message crossing from one layer to another.
public struct Hop: Sendable, Hashable, CustomStringConvertible {
    /// The layer the message leaves.
    public let from: ArchitectureLayer
    /// The layer the message reaches.
    public let to: ArchitectureLayer
    /// What the message says, in a few words.
    public let message: String

    /// Creates a hop.
    public init(from: ArchitectureLayer, to: ArchitectureLayer, message: String) {
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
        from: ArchitectureLayer,
        to: ArchitectureLayer,
        _ message: @autoclosure () -> String
    ) {
        guard let sink else { return }
        sink(Hop(from: from, to: to, message: message()))
    }
}
