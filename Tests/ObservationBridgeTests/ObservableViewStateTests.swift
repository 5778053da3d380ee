import MVCModel
import MVCObservation
import MVCObservationBridge
import MVCPresenter
import Observation
import Synchronization
import Testing

/// Set from an Observation `onChange`, which may run on any thread.
private final class Flag: Sendable {
    private let raised = Atomic(false)
    var isRaised: Bool { raised.load(ordering: .relaxed) }
    func raise() { raised.store(true, ordering: .relaxed) }
}

@MainActor
@Suite("A presenter's view-state through Apple's Observation")
struct ObservableViewStateTests {
    @Test("reading the state inside withObservationTracking is told of the next intent's change")
    func withObservationTrackingSeesIntents() {
        let model = SwitchesPresenter(model: SwitchesModel()).observable()
        let changed = Flag()

        withObservationTracking {
            _ = model.state.label
        } onChange: {
            changed.raise()
        }
        #expect(!changed.isRaised)
        model.presenter.buttonTapped("A")

        #expect(changed.isRaised)
        #expect(model.state.label == "Switch A turned on.")
        #expect(model.state.buttons[0].isOn)
    }

    @Test("a change of the model made elsewhere reaches the observable state too")
    func modelChangesReachIt() {
        let switches = SwitchesModel()
        let model = ObservableViewState(SwitchesPresenter(model: switches))
        let changed = Flag()
        withObservationTracking {
            _ = model.state
        } onChange: {
            changed.raise()
        }

        switches.isSwitchBOn.value = true

        #expect(changed.isRaised)
        #expect(model.state.buttons[1].isOn)
    }

    @Test("Observations yields the current state, then each new one, in order")
    func observationsSequence() async {
        let model = SwitchesPresenter(model: SwitchesModel()).observable()
        let labels = Observations { model.state.label }
        var iterator = labels.makeAsyncIterator()

        #expect(await iterator.next() == "Press a button.")
        model.presenter.buttonTapped("A")
        #expect(await iterator.next() == "Switch A turned on.")
        model.presenter.buttonTapped("B")
        #expect(await iterator.next() == "Switch B turned on.")
    }

    @Test("the bridge lets its presenter go with it")
    func noLeak() {
        weak var weakPresenter: SwitchesPresenter?
        weak var weakModel: ObservableViewState<SwitchesPresenter>?
        do {
            let presenter = SwitchesPresenter(model: SwitchesModel())
            let model = presenter.observable()
            weakPresenter = presenter
            weakModel = model
            presenter.buttonTapped("A")
        }
        #expect(weakModel == nil)
        #expect(weakPresenter == nil)
    }
}

@MainActor
@Suite("The view-state bridge when an observer sends an intent mid-delivery")
struct ReentrantViewStateTests {
    @Test("the bridge ends at the latest state, and tracking hears the change")
    func intentDuringDelivery() {
        let presenter = SwitchesPresenter(model: SwitchesModel())
        let model = presenter.observable()
        // Another observer of the presenter reacts to A by pressing B, during the delivery.
        let reaction = presenter.observeViewState { state in
            if state.label == "Switch A turned on." { presenter.buttonTapped("B") }
        }
        let changed = Flag()
        withObservationTracking {
            _ = model.state
        } onChange: {
            changed.raise()
        }

        presenter.buttonTapped("A")

        #expect(changed.isRaised)
        #expect(model.state == presenter.viewState)
        #expect(model.state.label == "Switch B turned on.")
        _ = reaction
    }
}

/// Sends an object to another thread and lets the last reference to it go there.
private func releaseElsewhere(_ object: sending ObservableViewState<SwitchesPresenter>) async {
    await Task.detached { withExtendedLifetime(object) {} }.value
}

@MainActor
@Suite("An observable view-state whose last reference goes on another thread")
struct ObservableViewStateReleaseTests {
    @Test("released on other threads while its presenter keeps publishing, it stops following")
    func releasedElsewhereWhilePublishing() async {
        let switches = SwitchesModel()
        let presenter = SwitchesPresenter(model: switches)
        for _ in 0..<100 {
            await releaseElsewhere(ObservableViewState(presenter))
            presenter.buttonTapped("A")
        }
        let kept = presenter.observable()
        presenter.buttonTapped("B")

        #expect(kept.state == presenter.viewState)
        #expect(switches.isSwitchBOn.value == (presenter.viewState.buttons[1].isOn))
    }
}
