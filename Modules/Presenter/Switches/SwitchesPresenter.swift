public import MVCModel
public import MVCObservation
public import MVCTracing

/// Presents the Switches model: a button per switch that toggles it, and a label that says which
/// switch changed.
///
/// Each switch is bound to its own method, `switchAChanged(_:)` or `switchBChanged(_:)`,
/// through `ObservableProperty.observe(_:options:action:)`: the compiler checks each binding, and
/// no method has to ask which property changed. What is the same for every switch (its button,
/// pressing it, reset) goes over the model's `switches`.
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
                buttons: model.switches.map { .init(title: $0.name, isOn: $0.isOn.value) }),
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

    /// The user pressed the button titled `title`: its switch flips.
    ///
    /// - Returns: Whether a switch has that name (case does not matter).
    @discardableResult
    public func buttonTapped(_ title: String) -> Bool {
        guard let pressed = model.switch(named: title) else { return false }
        let name = "isSwitch\(pressed.name)On"
        tracer.record(
            from: .presenter, to: .model, "\(name) = \(Self.describe(!pressed.isOn.value))")
        pressed.isOn.value.toggle()
        return true
    }

    /// The user asked for a reset: every switch turns off, and the label says what the reset
    /// did, as one new view-state.
    ///
    /// The model tells each switch that turned off to its own handler; the presenter batches its
    /// view-state around the reset, so the screen shows the net result once, with a label naming
    /// every switch the reset turned off (not just the last one heard).
    public func resetTapped() {
        tracer.record(from: .presenter, to: .model, "reset()")
        let turnedOff = model.switches.filter(\.isOn.value).map(\.name)
        viewChanges.batch {
            model.reset()
            state.update { $0.label = Self.resetLabel(turnedOff: turnedOff) }
        }
    }

    /// What a reset did, in words: which switches it turned off, or that there was nothing to do.
    static func resetLabel(turnedOff switches: [String]) -> String {
        switch switches.count {
        case 0: "Reset: every switch was already off."
        case 1: "Reset: switch \(switches[0]) turned off."
        default:
            "Reset: switches \(switches.dropLast().joined(separator: ", ")) and \(switches[switches.count - 1]) turned off."
        }
    }

    // MARK: Model observation, one method per property

    /// Switch A changed: its button and the label follow.
    func switchAChanged(_ change: ObservedChange<Bool>) {
        show(change, ofSwitch: "A", heardBy: "switchAChanged")
    }

    /// Switch B changed: its button and the label follow.
    func switchBChanged(_ change: ObservedChange<Bool>) {
        show(change, ofSwitch: "B", heardBy: "switchBChanged")
    }

    /// Shows a switch's new position on its button and in the label.
    private func show(
        _ change: ObservedChange<Bool>, ofSwitch name: String, heardBy handler: String
    ) {
        guard let isOn = change.newValue else { return }
        tracer.record(from: .observation, to: .presenter, "\(handler)(\(Self.describe(isOn)))")
        state.update { state in
            for index in state.buttons.indices where state.buttons[index].title == name {
                state.buttons[index].isOn = isOn
            }
            state.label = "Switch \(name) turned \(Self.describe(isOn))."
        }
    }

    private static func describe(_ isOn: Bool) -> String {
        isOn ? "on" : "off"
    }
}
