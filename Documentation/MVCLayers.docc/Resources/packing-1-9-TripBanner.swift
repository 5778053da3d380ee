import MVCObservation

/// Announces each change of the trip: each property is tied to its own method.
@MainActor
public final class TripBanner {
    private let show: (String) -> Void
    private var tokens: [ObservationToken] = []

    /// Starts following `trip`, one method per property, handing each line to `show`.
    public init(trip: Trip, show: @escaping (String) -> Void) {
        self.show = show
        tokens = [
            trip.name.observe(self, action: TripBanner.nameChanged),
            trip.itemsLeft.observe(self, action: TripBanner.nameChanged),
        ]
    }

    func nameChanged(_ change: ObservedChange<String>) {
        show("trip renamed from \(change.oldValue ?? "?") to \(change.newValue ?? "?")")
    }

    func itemsLeftChanged(_ change: ObservedChange<Int>) {
        show("items left to pack: \(change.newValue ?? 0) (was \(change.oldValue ?? 0))")
    }
}
