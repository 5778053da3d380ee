public import MVCObservation
public import MVCTracing

/// The model of the Switches sample: two switches, each observable on its own.
///
/// Each switch is an `ObservableProperty`, so an observer binds each one to its own handler;
/// all share one `ChangeCoordinator`, so ``reset()`` reaches each observer once. What is the same
/// for every switch (reset, tracing, a screen's row of buttons) goes over ``switches``; what
/// differs (the handler each observer binds) is written per switch.
@MainActor
public final class SwitchesModel {
    /// One switch, by name.
    public struct Switch {
        /// The name a button and a label show: "A".
        public let name: String
        /// Whether it is on.
        public let isOn: ObservableProperty<Bool>
    }

    /// Batches and orders the changes of every switch.
    public let changes = ChangeCoordinator()
    /// Whether switch A is on.
    public let isSwitchAOn: ObservableProperty<Bool>
    /// Whether switch B is on.
    public let isSwitchBOn: ObservableProperty<Bool>
    private var tracingTokens: [ObservationToken] = []

    /// Every switch, in the order a screen shows them.
    public var switches: [Switch] {
        [Switch(name: "A", isOn: isSwitchAOn), Switch(name: "B", isOn: isSwitchBOn)]
    }

    /// Creates the model with each switch in the given position.
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
        tracingTokens = switches.map { Self.trace($0, to: tracer) }
    }

    /// The switch called `name` (case does not matter), if there is one.
    public func `switch`(named name: String) -> Switch? {
        switches.first { $0.name.lowercased() == name.lowercased() }
    }

    /// Turns every switch off; observers hear each switch that was on, once.
    public func reset() {
        changes.batch {
            for item in switches { item.isOn.value = false }
        }
    }

    private static func trace(_ item: Switch, to tracer: HopTracer) -> ObservationToken {
        let name = item.name
        return item.isOn.observe { change in
            tracer.record(
                from: .model, to: .observation,
                "isSwitch\(name)On changed to \(change.newValue == true ? "on" : "off")")
        }
    }
}
