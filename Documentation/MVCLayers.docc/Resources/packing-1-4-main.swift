import PackingCore

let trip = Trip(name: "Weekend")
let banner = TripBanner(trip: trip)

trip.name.value = "Long weekend"
trip.itemsLeft.value = 3
trip.itemsLeft.value = 3  // equal to the current value: not a change

for line in banner.lines { print(line) }
