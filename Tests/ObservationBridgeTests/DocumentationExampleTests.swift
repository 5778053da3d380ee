import MVCModel
import MVCObservation
import MVCObservationBridge
import MVCPresenter
import Observation
import Testing

// BEGIN SwiftUIAndUIKit keepRendering example
@MainActor
func keepRendering<Presenter: ViewStatePresenter>(
    _ model: ObservableViewState<Presenter>,
    _ render: @escaping @MainActor (Presenter.ViewState) -> Void
) {
    withObservationTracking {
        render(model.state)
    } onChange: { [weak model] in
        // Weakly: the model's registrar keeps this closure, so a strong capture would keep
        // the model (and its presenter) alive for ever.
        Task { @MainActor in
            if let model { keepRendering(model, render) }
        }
    }
}
// END SwiftUIAndUIKit keepRendering example

/// Collects rendered labels.
@MainActor
private final class Screen {
    var labels: [String] = []
}

/// The code of the module's catalog and of its SwiftUI and UIKit article, compiled and run.
@MainActor
@Suite("MVCObservationBridge documentation examples")
struct DocumentationExampleTests {
    @Test("the catalog's example is told of the intent's change")
    func catalogExample() {
        // BEGIN MVCObservationBridge example
        let model = SwitchesPresenter(model: SwitchesModel()).observable()
        withObservationTracking {
            _ = model.state.label
        } onChange: {
            print("the label will change")
        }
        model.presenter.buttonTapped("A")  // prints "the label will change"
        // END MVCObservationBridge example
        #expect(model.state.label == "Switch A turned on.")
    }

    @Test("the article's shared setup sends an intent and reads the new label")
    func sharedSetup() {
        // BEGIN SwiftUIAndUIKit shared example
        let model = SwitchesPresenter(model: SwitchesModel()).observable()
        model.presenter.buttonTapped("A")
        print(model.state.label)  // "Switch A turned on."
        // END SwiftUIAndUIKit shared example
        #expect(model.state.label == "Switch A turned on.")
    }

    @Test("keepRendering renders at once and after every change")
    func keepRenderingRendersEachChange() async {
        let model = SwitchesPresenter(model: SwitchesModel()).observable()
        let screen = Screen()
        keepRendering(model) { state in screen.labels.append(state.label) }

        model.presenter.buttonTapped("A")
        await settle()
        model.presenter.buttonTapped("B")
        await settle()

        #expect(screen.labels == ["Press a button.", "Switch A turned on.", "Switch B turned on."])
    }

    @Test("keepRendering lets the model and its presenter go when nothing else holds them")
    func keepRenderingDoesNotLeak() async {
        weak var weakModel: ObservableViewState<SwitchesPresenter>?
        weak var weakPresenter: SwitchesPresenter?
        do {
            let presenter = SwitchesPresenter(model: SwitchesModel())
            let model = presenter.observable()
            weakModel = model
            weakPresenter = presenter
            keepRendering(model) { _ in }
            presenter.buttonTapped("A")
            await settle()
        }
        await settle()
        #expect(weakModel == nil)
        #expect(weakPresenter == nil)
    }

    @Test("the Observations loop reads the labels as they change")
    func observationsLoop() async {
        let model = SwitchesPresenter(model: SwitchesModel()).observable()
        let reader = Task { @MainActor in
            var seen: [String] = []
            // BEGIN SwiftUIAndUIKit observations example
            let labels = Observations { model.state.label }
            for await label in labels {
                print(label)
                if label == "Switch A turned on." { break }
            }
            // END SwiftUIAndUIKit observations example
            seen.append(model.state.label)
            return seen
        }
        await settle()
        model.presenter.buttonTapped("A")

        #expect(await reader.value == ["Switch A turned on."])
    }

    @Test("the lamp example's handler hears the change with old and new values")
    func lampExample() async {
        // BEGIN SwiftUIAndUIKit lamp example
        let lamp = Lamp()
        let token = lamp.observe(\.isOn) { change in
            print("was \(change.oldValue == true), now \(change.newValue == true)")
        }
        lamp.isOn = true  // prints "was false, now true" at the main actor's next turn
        // END SwiftUIAndUIKit lamp example
        var heard: [Bool?] = []
        let check = lamp.observe(\.isOn, options: [.initial, .new]) { heard.append($0.newValue) }
        await settle()
        #expect(heard == [true])
        withExtendedLifetime((token, check)) {}
    }
}
