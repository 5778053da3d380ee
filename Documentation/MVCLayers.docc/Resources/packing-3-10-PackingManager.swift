import MVCObservation

/// Forwards the book's operations: written once, for any facade that has a book.
@MainActor
public protocol WeightBookForwarding: WeightBookOperations {
    var book: any WeightBookOperations { get }
}

extension WeightBookForwarding {
    /// Forwarded to the book.
    public func gram(of name: String) -> Int? { book.grams(of: name) }
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

/// The one object screens talk to about weights: its API is the two sub-managers' protocols,
/// and the compiler checks that every operation is forwarded.
@MainActor
public final class PackingManager: WeightBookForwarding, WeightFetcherForwarding {
    /// Holds the weights known so far.
    public let book: any WeightBookOperations
    /// Asks the service for weights not known yet.
    public let fetcher: any WeightFetcherOperations

    /// A facade over a new book and a fetcher that asks `service`.
    public init(service: any WeightService) {
        let book = WeightBook()
        self.book = book
        self.fetcher = WeightFetcher(book: book, service: service)
    }
}
