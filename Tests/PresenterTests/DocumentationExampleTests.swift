import MVCModel
import MVCObservation
import MVCPresenter
import MVCPresenterTesting
import Testing

/// The examples of the MVCPresenter and MVCPresenterTesting articles, compiled and run.
@MainActor
@Suite("The documentation's examples")
struct PresenterDocumentationExampleTests {
    @Test("the MVCPresenter overview example drives a presenter and hears its view-state")
    func presenterExample() {
        // BEGIN MVCPresenter example
        let presenter = SwitchesPresenter(model: SwitchesModel())
        let token = presenter.observeViewState { state in print(state.label) }
        presenter.buttonTapped("A")  // prints "Switch A turned on."
        // END MVCPresenter example

        #expect(presenter.viewState.label == "Switch A turned on.")
        withExtendedLifetime(token) {}
    }

    @Test("the MVCPresenterTesting overview example records a timeline")
    func presenterTestingExample() async {
        // BEGIN MVCPresenterTesting example
        let store = PresenterTestStore(SwitchesPresenter(model: SwitchesModel()))
        store.send { $0.buttonTapped("A") }
        store.expect {
            $0.buttons[0].isOn = true
            $0.label = "Switch A turned on."
        }
        await store.finish()
        // END MVCPresenterTesting example

        // BEGIN MVCPresenterTesting recorder example
        let presenter = SwitchesPresenter(model: SwitchesModel())
        let recorder = ViewStateRecorder(presenter)
        presenter.buttonTapped("A")
        #expect(recorder.timeline.map(\.label) == ["Press a button.", "Switch A turned on."])
        // END MVCPresenterTesting recorder example
    }
}
