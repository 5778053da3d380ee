import MVCObservation

/// Keeps a banner up to date: each property of the trip is tied to its own method.
public final class TripBanner {
    /// The banner's lines, one per change, oldest first.
    public private(set) var lines: [String] = []
    private var tokens: [ObservationToken] = []

    /// Starts following `trip`, one method per property.
    public init(trip: Trip) {
        tokens = [
            trip.name.observe(self, action: TripBanner.nameChanged),
            trip.itemsLeft.observe(self, action: TripBanner.itemsLeftChanged),
        ]
    }

    func nameChanged(_ change: ObservedChange<String>) {
        lines.append("renamed from \(change.oldValue ?? "?") to \(change.newValue ?? "?")")
    }

    func itemsLeftChanged(_ change: ObservedChange<Int>) {
        lines.append("\(change.newValue ?? 0) items left (was \(change.oldValue ?? 0))")
    }
}
