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
