import MVCObservation

/// The trip being packed for: each property is observable on its own.
@MainActor
public final class Trip {
    /// Where the trip goes.
    public let name: ObservableProperty<String>
    /// How many items are still to pack.
    public let itemsLeft: ObservableProperty<Int>

    /// A trip with a name and a number of items left.
    public init(name: String, itemsLeft: Int = 0) {
        self.name = ObservableProperty(name)
        self.itemsLeft = ObservableProperty(itemsLeft)
    }
}
