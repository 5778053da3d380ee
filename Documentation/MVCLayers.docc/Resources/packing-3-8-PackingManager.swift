import MVCObservation

/// Forwards the book's operations: written once, for any facade that has a book.
@MainActor
public protocol WeightBookForwarding: WeightBookOperations {
    var book: any WeightBookOperations { get }
}

extension WeightBookForwarding {
    /// Forwarded to the book.
    public func grams(of name: String) -> Int? { book.grams(of: name) }
    /// The book's updates.
    public var weightUpdates: UpdateSubscriptions<WeightUpdate> { book.weightUpdates }
}

/// Forwards the fetcher's operations.
@MainActor
public protocol WeightFetcherForwarding: WeightFetcherOperations {
    var fetcher: any WeightFetcherOperations { get }
}

extension WeightFetcherForwarding {
    /// Forwarded to the fetcher.
    public func lookUp(_ name: String) async { await fetcher.lookUp(name) }
}
