import MVCObservation

/// The weights known so far, and the updates about them.
@MainActor
public protocol WeightBookOperations: AnyObject {
    func grams(of name: String) -> Int?
    var weightUpdates: UpdateSubscriptions<WeightUpdate> { get }
}

/// Asking the service for a weight.
@MainActor
public protocol WeightFetcherOperations: AnyObject {
    /// Looks up `name`'s weight, unless it is known already.
    func lookUp(_ name: String) async
}

/// Holds the weights, and publishes each one as it is recorded.
@MainActor
public final class WeightBook: WeightBookOperations {
    private var known: [String: Int] = [:]
    private let channel = UpdateChannel<WeightUpdate>()

    /// An empty book.
    public init() {}

    /// The weight of one `name`, if known.
    public func grams(of name: String) -> Int? { known[WeightUpdate.key(for: name)] }
    /// Where each recorded weight is published, keyed by name.
    public var weightUpdates: UpdateSubscriptions<WeightUpdate> { channel.subscriptions }

    func record(_ grams: Int, for name: String) {
        known[WeightUpdate.key(for: name)] = grams
        channel.publish(WeightUpdate(name: name, grams: grams))
    }
}

/// Asks the service, but only for weights the book does not have.
@MainActor
public final class WeightFetcher: WeightFetcherOperations {
    private let book: WeightBook
    private let service: any WeightService

    /// A fetcher that records in `book` what it asks `service`.
    public init(book: WeightBook, service: any WeightService) {
        self.book = book
        self.service = service
    }

    /// The lookups under way, by key: a second asks no more, it waits for the first's answer.
    private var asking: [String: Task<Int?, Never>] = [:]

    /// Asks the service for `name`'s weight, unless the book has it.
    public func lookUp(_ name: String) async {
        guard book.grams(of: name) == nil else { return }  // cached: the service is not asked
        let key = WeightUpdate.key(for: name)
        if let lookup = asking[key] {  // asked already: wait for that answer
            _ = await lookup.value
            return
        }
        let service = self.service
        let lookup = Task { try? await service.grams(of: name) }
        asking[key] = lookup
        let grams = await lookup.value
        asking[key] = nil
        if let grams { book.record(grams, for: name) }
    }
}
