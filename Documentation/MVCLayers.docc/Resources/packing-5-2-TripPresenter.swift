import MVCObservation

/// The trip's presenter: the screen renames the trip through it, and it keeps the trip's count
/// of items left in step with the list.
@MainActor
public final class TripPresenter {
    private let trip: Trip
    private var listToken: ObservationToken?

    /// A presenter of `trip` whose count follows `list`.
    public init(trip: Trip, list: PackingListPresenter) {
        self.trip = trip
        trip.itemsLeft.value = list.viewState.itemsLeft
        listToken = list.observeViewState { [trip] in trip.itemsLeft.value = $0.itemsLeft }
    }

    /// The user named the trip `name`.
    public func renameTapped(to name: String) {
        trip.name.value = name
    }
}
