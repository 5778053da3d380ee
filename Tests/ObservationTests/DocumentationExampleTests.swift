import MVCObservation
import Testing

/// The example of the MVCObservation documentation article, compiled and run so it cannot rot.
///
/// ArchitectureTests checks that the article shows exactly the code between the markers.
@Suite("The documentation's example")
struct ObservationDocumentationExampleTests {
    @Test("the MVCObservation overview example observes a change with its old and new values")
    func overviewExample() {
        // BEGIN MVCObservation example
        final class Thermostat {
            let changes = ChangeCoordinator()
            let target: ObservableProperty<Double>
            init() { target = ObservableProperty(20, coordinator: changes) }
        }

        let thermostat = Thermostat()
        let token = thermostat.target.observe(options: [.old, .new]) { change in
            print("target temperature is now \(change.newValue ?? 0)")
        }
        thermostat.target.value = 21
        // END MVCObservation example

        #expect(thermostat.target.observationCount == 1)
        withExtendedLifetime(token) {}
    }
}
