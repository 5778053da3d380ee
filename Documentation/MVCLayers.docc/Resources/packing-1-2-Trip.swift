import MVCObservation

/// A trip being packed for: each property is observable on its own.
public final class Trip {
    public let name: ObservableProperty<String>
    public let itemsLeft: ObservableProperty<Int>

    public init(name: String, itemsLeft: Int = 0) {
        self.name = ObservableProperty(name)
        self.itemsLeft = ObservableProperty(itemsLeft)
    }
}
