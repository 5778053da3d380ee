// The presenter: one method per observed property, and a view-state struct the View draws.

/// What the screen shows: a button per switch and a label saying what happened last.
struct SwitchesViewState: Equatable {
    var isSwitchAOn = false
    var isSwitchBOn = false
    var label = "Press a button."
}

/// Turns the user's taps into model changes, and the model's changes into view-state.
@MainActor
final class SwitchesPresenter {
    private let model: SwitchesModel
    /// The View observes this, as the presenter observes the model.
    let viewState = Observable(SwitchesViewState())

    init(model: SwitchesModel) {
        self.model = model
        // Each property, its own method: the whole of post 000 in two lines.
        model.isSwitchAOn.observe(self, action: SwitchesPresenter.switchAChanged)
        model.isSwitchBOn.observe(self, action: SwitchesPresenter.switchBChanged)
    }

    /// The user pressed the button of the switch called `name` ("A" or "B").
    func buttonTapped(_ name: String) {
        switch name {
        case "A": model.isSwitchAOn.value.toggle()
        case "B": model.isSwitchBOn.value.toggle()
        default: break
        }
    }

    /// The user pressed reset: every switch turns off, and the label names those that were on.
    func resetTapped() {
        let wereOn = [("A", model.isSwitchAOn.value), ("B", model.isSwitchBOn.value)]
            .filter { $0.1 }.map { $0.0 }
        model.reset()
        viewState.value.label =
            switch wereOn.count {
            case 0: "Reset: every switch was already off."
            case 1: "Reset: switch \(wereOn[0]) turned off."
            default: "Reset: switches \(wereOn.joined(separator: " and ")) turned off."
            }
    }

    func switchAChanged(_ isOn: Bool) {
        viewState.value.isSwitchAOn = isOn
        viewState.value.label = "Switch A turned \(isOn ? "on" : "off")."
    }

    func switchBChanged(_ isOn: Bool) {
        viewState.value.isSwitchBOn = isOn
        viewState.value.label = "Switch B turned \(isOn ? "on" : "off")."
    }
}
