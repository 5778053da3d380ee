public import MVCModel
public import MVCObservation
public import MVCTracing

/// Presents the Switches model: two buttons that toggle two switches, and a label that says which
/// switch changed.
///
/// Each switch is bound to its own method, `switchAChanged(_:)` or `switchBChanged(_:)`,
/// through `ObservableProperty.observe(_:options:action:)`:
/// the compiler checks each binding, and no method has to ask which property changed.
@MainActor
public final class SwitchesPresenter: ViewStatePresenter {
    private let model: SwitchesModel
    private let tracer: HopTracer
    /// Batches the view-state's changes during a reset, so the screen sees one new state.
    private let viewChanges = ChangeCoordinator()
    private let state: ObservableProperty<SwitchesViewState>
    private var tokens: [ObservationToken] = []

    /// Creates a presenter for `model` and starts observing it.
    ///
    /// - Parameters:
    ///   - model: The switches to present; the presenter keeps it alive.
    ///   - tracer: Told each hop the presenter makes or receives.
    public init(model: SwitchesModel, tracer: HopTracer = .disabled) {
        self.model = model
        self.tracer = tracer
        self.state = ObservableProperty(
            SwitchesViewState(
                label: SwitchesViewState.initialLabel,
                buttonA: .init(title: "A", isOn: model.isSwitchAOn.value),
                buttonB: .init(title: "B", isOn: model.isSwitchBOn.value)
            ),
            coordinator: viewChanges
        )
        tokens = [
            model.isSwitchAOn.observe(self, action: SwitchesPresenter.switchAChanged),
            model.isSwitchBOn.observe(self, action: SwitchesPresenter.switchBChanged),
        ]
    }

    /// What the screen shows now.
    public var viewState: SwitchesViewState { state.value }

    /// Calls `handler` with each new view-state, until the token is released.
    public func observeViewState(_ handler: @escaping (SwitchesViewState) -> Void)
        -> ObservationToken
    {
        state.observe(options: .new) { change in
            if let newState = change.newValue { handler(newState) }
        }
    }

    // MARK: Intents

    /// The user pressed button A: switch A flips.
    public func buttonATapped() {
        tracer.record(
            from: .presenter, to: .model, "isSwitchAOn = \(Self.describe(!model.isSwitchAOn.value))"
        )
        model.isSwitchAOn.value.toggle()
    }

    /// The user pressed button B: switch B flips.
    public func buttonBTapped() {
        tracer.record(
            from: .presenter, to: .model, "isSwitchBOn = \(Self.describe(!model.isSwitchBOn.value))"
        )
        model.isSwitchBOn.value.toggle()
    }

    /// The user asked for a reset: both switches turn off, and the label says what the reset
    /// did, as one new view-state.
    ///
    /// The model tells each switch that turned off to its own handler; the presenter batches its
    /// view-state around the reset, so the screen shows the net result once, with a label naming
    /// every switch the reset turned off (not just the last one heard).
    public func resetTapped() {
        tracer.record(from: .presenter, to: .model, "reset()")
        let turnedOff = [
            model.isSwitchAOn.value ? "A" : nil, model.isSwitchBOn.value ? "B" : nil,
        ].compactMap(\.self)
        viewChanges.batch {
            model.reset()
            state.update { $0.label = Self.resetLabel(turnedOff: turnedOff) }
        }
    }

    /// What a reset did, in words: which switches it turned off, or that there was nothing to do.
    static func resetLabel(turnedOff switches: [String]) -> String {
        switch switches.count {
        case 0: "Reset: both switches were already off."
        case 1: "Reset: switch \(switches[0]) turned off."
        default: "Reset: switches \(switches.joined(separator: " and ")) turned off."
        }
    }

    // MARK: Model observation, one method per property

    /// Switch A changed: its button and the label follow.
    func switchAChanged(_ change: ObservedChange<Bool>) {
        guard let isOn = change.newValue else { return }
        tracer.record(from: .observation, to: .presenter, "switchAChanged(\(Self.describe(isOn)))")
        state.update { state in
            state.buttonA.isOn = isOn
            state.label = "Switch A turned \(Self.describe(isOn))."
        }
    }

    /// Switch B changed: its button and the label follow.
    func switchBChanged(_ change: ObservedChange<Bool>) {
        guard let isOn = change.newValue else { return }
        tracer.record(from: .observation, to: .presenter, "switchBChanged(\(Self.describe(isOn)))")
        state.update { state in
            state.buttonB.isOn = isOn
            state.label = "Switch B turned \(Self.describe(isOn))."
        }
    }

    private static func describe(_ isOn: Bool) -> String {
        isOn ? "on" : "off"
    }
}
