import MVCObservation

/// Collects what handlers receive, in order.
final class Log<Item> {
    var items: [Item] = []

    func append(_ item: Item) {
        items.append(item)
    }
}

/// An observer object whose methods are bound to properties, target-action style.
final class Listener {
    var changes: [ObservedChange<Int>] = []
    var pings = 0

    func valueChanged(_ change: ObservedChange<Int>) {
        changes.append(change)
    }

    func ping() {
        pings += 1
    }
}

/// A model object with two properties sharing one coordinator, as a model would have.
final class Counters {
    let changes = ChangeCoordinator()
    let first: ObservableProperty<Int>
    let second: ObservableProperty<Int>

    init(first: Int = 0, second: Int = 0) {
        self.first = ObservableProperty(first, coordinator: changes)
        self.second = ObservableProperty(second, coordinator: changes)
    }
}

/// A value with no `Equatable` conformance, so every assignment counts as a change.
struct Opaque {
    var number: Int
}

extension ObservedChange {
    /// Shorthand for the change a `[.old, .new]` observer receives.
    static func setting(_ old: Value, _ new: Value) -> ObservedChange {
        ObservedChange(kind: .setting, oldValue: old, newValue: new)
    }
}
