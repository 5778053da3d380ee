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

    /// A service answering from `table`, by lowercased name.
    public init(_ table: [String: Int]) {
        self.table = table
    }

    /// Answers from the table; 100 g for a name it does not know.
    public func grams(of name: String) async throws -> Int {
        lookups += 1
        return table[name.lowercased()] ?? 100
    }
}
