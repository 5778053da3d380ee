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
