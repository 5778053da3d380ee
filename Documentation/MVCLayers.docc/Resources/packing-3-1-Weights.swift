import MVCObservation

/// Where weights come from: a remote lookup, slow and counted.
public protocol WeightService: Sendable {
    /// How much one `name` weighs, in grams.
    func grams(of name: String) async throws -> Int
}

/// A weight service that answers from a table, and counts the questions it is asked.
public actor SimulatedWeights: WeightService {
    private let table: [String: Int]
    /// How many lookups reached the service.
    public private(set) var lookups = 0

    public init(_ table: [String: Int]) {
        self.table = table
    }

    public func grams(of name: String) async throws -> Int {
        lookups += 1
        return table[name.lowercased()] ?? 100
    }
}

/// What the weight managers publish, keyed by item name: a screen follows the items it shows.
public struct WeightUpdate: KeyedUpdate, Equatable, Sendable {
    public var name: String
    public var grams: Int
    public var key: String { name }
}
