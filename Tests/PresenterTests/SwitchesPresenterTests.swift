import MVCModel
import MVCObservation
import MVCPresenter
import MVCPresenterTesting
import MVCTracing
import Synchronization
import Testing

extension Ideas {
    @MainActor
    @Suite("The switches presenter")
    struct SwitchesPresenterTests {
        /// The view-state with the given label, and a button per switch of the model, on for the
        /// switches named in `on`.
        private func screen(_ label: String, on: Set<String> = []) -> SwitchesViewState {
            SwitchesViewState(
                label: label,
                buttons: SwitchesModel().switches.map {
                    .init(title: $0.name, isOn: on.contains($0.name))
                }
            )
        }

        @Test("pressing A, then B, then A again walks the screen through each state once")
        func pressButtons() {
            let presenter = SwitchesPresenter(model: SwitchesModel())
            let recorder = ViewStateRecorder(presenter)

            presenter.buttonTapped("A")
            presenter.buttonTapped("B")
            presenter.buttonTapped("A")

            #expect(
                recorder.timeline == [
                    screen(SwitchesViewState.initialLabel),
                    screen("Switch A turned on.", on: ["A"]),
                    screen("Switch B turned on.", on: ["A", "B"]),
                    screen("Switch A turned off.", on: ["B"]),
                ]
            )
        }

        @Test(
            "reset shows one state whose label names every switch it turned off, or says none was on"
        )
        func resetTimeline() async {
            let store = PresenterTestStore(
                SwitchesPresenter(model: SwitchesModel(isSwitchAOn: true, isSwitchBOn: true)))

            store.send { $0.resetTapped() }

            store.expect {
                $0.buttons[0].isOn = false
                $0.buttons[1].isOn = false
                $0.label = "Reset: switches A and B turned off."
            }
            store.send { $0.resetTapped() }
            store.expect {
                $0.label = "Reset: every switch was already off."
            }
            store.send { $0.buttonTapped("B") }
            store.expect {
                $0.buttons[1].isOn = true
                $0.label = "Switch B turned on."
            }
            store.send { $0.resetTapped() }
            store.expect {
                $0.buttons[1].isOn = false
                $0.label = "Reset: switch B turned off."
            }
            await store.finish()
        }

        @Test("a change made to the model elsewhere reaches the screen too")
        func followsModel() {
            let model = SwitchesModel()
            let presenter = SwitchesPresenter(model: model)
            let recorder = ViewStateRecorder(presenter)

            model.isSwitchBOn.value = true

            #expect(
                recorder.takeNewStates() == [
                    screen(SwitchesViewState.initialLabel),
                    screen("Switch B turned on.", on: ["B"]),
                ]
            )
            #expect(recorder.takeNewStates() == [])
            #expect(recorder.latest == screen("Switch B turned on.", on: ["B"]))
        }

        @Test("taking new states hands over each state once, in order")
        func takeNewStatesStepByStep() {
            let presenter = SwitchesPresenter(model: SwitchesModel())
            let recorder = ViewStateRecorder(presenter)
            #expect(recorder.takeNewStates() == [screen(SwitchesViewState.initialLabel)])

            presenter.buttonTapped("A")
            #expect(recorder.takeNewStates() == [screen("Switch A turned on.", on: ["A"])])

            presenter.buttonTapped("B")
            presenter.buttonTapped("B")
            #expect(
                recorder.takeNewStates() == [
                    screen("Switch B turned on.", on: ["A", "B"]),
                    screen("Switch B turned off.", on: ["A"]),
                ]
            )
        }

        @Test(
            "a press travels view → presenter → model → observation → presenter, and is traced in that order"
        )
        func traceOrder() {
            let hops = Mutex<[String]>([])
            let tracer = HopTracer { hop in hops.withLock { $0.append(hop.description) } }
            let presenter = SwitchesPresenter(model: SwitchesModel(tracer: tracer), tracer: tracer)

            presenter.buttonTapped("A")

            #expect(
                hops.withLock { $0 } == [
                    "presenter → model: isSwitchAOn = on",
                    "model → observation: isSwitchAOn changed to on",
                    "observation → presenter: switchAChanged(on)",
                ]
            )
        }
    }
}

@MainActor
@Suite("Switches lifetimes")
struct SwitchesLifetimeTests {
    @Test("a released presenter is deallocated and its observations of the model end")
    func presenterDeallocates() {
        let model = SwitchesModel()
        let observationsBefore = model.isSwitchAOn.observationCount
        var presenter: SwitchesPresenter? = SwitchesPresenter(model: model)
        weak let weakPresenter = presenter
        #expect(model.isSwitchAOn.observationCount == observationsBefore + 1)

        presenter = nil

        #expect(weakPresenter == nil)
        #expect(model.isSwitchAOn.observationCount == observationsBefore)
        model.isSwitchAOn.value = true
    }

    @Test("presenter, model and recorder are all deallocated once the test lets go")
    func nothingLeaks() {
        weak var weakModel: SwitchesModel?
        weak var weakPresenter: SwitchesPresenter?
        weak var weakRecorder: ViewStateRecorder<SwitchesPresenter>?
        do {
            let model = SwitchesModel()
            let presenter = SwitchesPresenter(model: model)
            let recorder = ViewStateRecorder(presenter)
            presenter.buttonTapped("A")
            presenter.resetTapped()
            weakModel = model
            weakPresenter = presenter
            weakRecorder = recorder
            #expect(recorder.timeline.count == 3)
        }

        #expect(weakRecorder == nil)
        #expect(weakPresenter == nil)
        #expect(weakModel == nil)
    }

    @Test("the presenter keeps its model alive for as long as it presents it")
    func presenterKeepsModel() {
        weak var weakModel: SwitchesModel?
        let presenter: SwitchesPresenter
        do {
            let model = SwitchesModel()
            weakModel = model
            presenter = SwitchesPresenter(model: model)
        }

        presenter.buttonTapped("A")

        #expect(weakModel != nil)
        #expect(presenter.viewState.buttons[0].isOn)
    }
}
