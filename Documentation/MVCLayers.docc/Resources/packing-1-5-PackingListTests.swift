import PackingCore
import Testing

@MainActor
@Test("a new trip has its name, and nothing left to pack")
func newTrip() {
    let trip = Trip(name: "Weekend")
    #expect(trip.name.value == "Weekend")
    #expect(trip.itemsLeft.value == 0)
}
