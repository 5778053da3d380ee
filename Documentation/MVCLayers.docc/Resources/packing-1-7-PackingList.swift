import PackingCore

@main
struct PackingList {
    @MainActor
    static func main() {
        let trip = Trip(name: "Weekend")
        let banner = TripBanner(trip: trip) { print($0) }

        trip.name.value = "Long weekend"
        trip.itemsLeft.value = 3
        trip.itemsLeft.value = 3  // equal to the current value: not a change

        withExtendedLifetime(banner) {}
    }
}
