public import MVCObservation
public import MVCTracing

/// The model of the Switches sample: two switches, each observable on its own.
///
/// Each switch is an `ObservableProperty`, so an observer binds each one to its own handler;
/// both share one `ChangeCoordinator`, so ``reset()`` reaches each observer once.
@MainActor
public final class SwitchesModel {
    /// Batches and orders the changes of both switches.
    public let changes = ChangeCoordinator()
    /// Whether switch A is on.
    public let isSwitchAOn: ObservableProperty<Bool>
    /// Whether switch B is on.
    public let isSwitchBOn: ObservableProperty<Bool>
    private var tracingTokens: [ObservationToken] = []

    /// Creates the model with both switches in the given positions.
    ///
    /// - Parameters:
    ///   - isSwitchAOn: Whether switch A starts on.
    ///   - isSwitchBOn: Whether switch B starts on.
    ///   - tracer: Told each time a switch's change leaves the model for its observers.
    public init(isSwitchAOn: Bool = false, isSwitchBOn: Bool = false, tracer: HopTracer = .disabled)
    {
        self.isSwitchAOn = ObservableProperty(isSwitchAOn, coordinator: changes)
        self.isSwitchBOn = ObservableProperty(isSwitchBOn, coordinator: changes)
        // Registered first, so the trace shows the change leaving the model before anyone hears it.
        tracingTokens = [
            Self.trace(self.isSwitchAOn, named: "isSwitchAOn", to: tracer),
            Self.trace(self.isSwitchBOn, named: "isSwitchBOn", to: tracer),
        ]
    }

    /// Turns both switches off; observers hear each switch that was on, once.
    public func reset() {
        changes.batch {
            isSwitchAOn.value = false
            isSwitchBOn.value = false
        }
    }

    private static func trace(
        _ property: ObservableProperty<Bool>,
        named name: String,
        to tracer: HopTracer
    ) -> ObservationToken {
        property.observe { change in
            tracer.record(
                from: .model, to: .observation,
                "\(name) changed to \(change.newValue == true ? "on" : "off")")
        }
    }
}
