import Dispatch
import MVCModel
import MVCObservation
import MVCPresenter
import MVCPresenterTesting
import Testing

/// The step-by-step test store: it passes a full, correct script, and fails each way it promises.
@MainActor
@Suite("The presenter test store")
struct PresenterTestStoreTests {
    @Test("a script that asserts every published state passes")
    func passingScript() async {
        let store = PresenterTestStore(SwitchesPresenter(model: SwitchesModel()))

        store.send { $0.buttonTapped("A") }
        store.expect {
            $0.buttons[0].isOn = true
            $0.label = "Switch A turned on."
        }
        store.send { $0.buttonTapped("B") }
        store.expect {
            $0.buttons[1].isOn = true
            $0.label = "Switch B turned on."
        }
        await store.finish()
    }

    @Test("a wrong expectation fails with a diff that names the differing field")
    func wrongExpectation() async {
        let store = PresenterTestStore(SwitchesPresenter(model: SwitchesModel()))
        withKnownIssue {
            store.send { $0.buttonTapped("A") }
            store.expect {
                $0.buttons[0].isOn = true
                $0.label = "Switch B turned on."
            }
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("− ") && text.contains("Switch B turned on.")
                && text.contains("+ ") && text.contains("Switch A turned on.")
        }
        await store.finish()
    }

    @Test("a state published and never asserted fails at the end")
    func unassertedState() async {
        let model = SwitchesModel()
        let store = PresenterTestStore(SwitchesPresenter(model: model))
        model.isSwitchBOn.value = true
        await withKnownIssue {
            await store.finish()
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("never asserted")
        }
    }

    @Test("an intent whose second state is not asserted fails when the next intent is sent")
    func twoStatesForOne() async {
        let store = PresenterTestStore(TwoStepPresenter())
        store.send { $0.stepTwiceTapped() }
        store.expect { $0 = 1 }
        withKnownIssue {
            store.send { $0.stepTwiceTapped() }
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("never asserted")
        }
        store.skipStates()
        await store.finish()
    }

    @Test("expecting a state when none was published fails, showing the expected change")
    func expectedButNothing() async {
        let store = PresenterTestStore(SwitchesPresenter(model: SwitchesModel()))
        store.send { _ in }
        withKnownIssue {
            store.expect { $0.label = "Switch A turned on." }
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("none was published") && text.contains("+ ")
        }
        await store.finish()
    }

    @Test("work still running at the end fails")
    func busyAtTheEnd() async {
        let store = PresenterTestStore(
            SwitchesPresenter(model: SwitchesModel()), isBusy: { true }, patience: .milliseconds(50)
        )
        await withKnownIssue {
            await store.finish()
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("still running")
        }
    }

    @Test(
        "a state the presenter's tracked work publishes through another queue after finish began is reported by finish, at the test"
    )
    func trackedWorkThroughAnotherQueue() async {
        let presenter = HoppingPresenter()
        let store = PresenterTestStore(presenter)
        store.send { $0.loadTapped() }

        await withKnownIssue {
            await store.finish()
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("never asserted")
        }
        // Reported and accepted by finish: nothing is left for the store's release to find.
        #expect(store.state == 1)
        #expect(!presenter.hasPendingWork)
    }

    @Test("a state that arrives later is received, waiting for it")
    func receiveLater() async {
        let model = SwitchesModel()
        let store = PresenterTestStore(SwitchesPresenter(model: model))
        Task { @MainActor in model.isSwitchAOn.value = true }

        await store.receive {
            $0.buttons[0].isOn = true
            $0.label = "Switch A turned on."
        }
        await store.finish()
    }
}

/// The store keeps its word across `finish()`, skips, and the store's release.
@MainActor
@Suite("The presenter test store after finish, skips and release")
struct PresenterTestStoreEndingTests {
    @Test("a state published after finish() is still reported when the store is released")
    func stateAfterFinish() async {
        let presenter = TwoStepPresenter()
        await withKnownIssue {
            let store = PresenterTestStore(presenter)
            await store.finish()
            presenter.stepOnceTapped()
            _ = store
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("never asserted")
        }
    }

    @Test("finish() lets work the presenter started run, and catches the state it publishes")
    func finishWaitsForStartedWork() async {
        let store = PresenterTestStore(TwoStepPresenter())
        store.send { $0.stepLaterTapped() }
        await withKnownIssue {
            await store.finish()
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("never asserted")
        }
    }

    @Test("a store kept by a task and released on it still reports to the test that made it")
    func releasedOnATask() async {
        let presenter = TwoStepPresenter()
        await withKnownIssue {
            var store: PresenterTestStore? = PresenterTestStore(presenter)
            store?.send { $0.stepOnceTapped() }
            let keeper = Task { [store] in
                await Task.yield()
                withExtendedLifetime(store) {}
            }
            store = nil
            await keeper.value
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("never asserted") && !text.contains("outlived")
        }
    }

    @Test("a failure found when the store is released is reported at the last step")
    func releaseFailureAtLastStep() async {
        let presenter = TwoStepPresenter()
        let lastStepLine = #line + 3  // the `send` below
        withKnownIssue {
            let store = PresenterTestStore(presenter)
            store.send { $0.stepOnceTapped() }
            _ = store
        } matching: { issue in
            issue.sourceLocation?.line == lastStepLine
                && issue.sourceLocation?.fileID.hasSuffix("PresenterTestStoreTests.swift") == true
        }
    }

    @Test(
        "skipping more states than were published, or fewer than none, fails", arguments: [2, -1])
    func skippingTooMany(count: Int) async {
        let store = PresenterTestStore(TwoStepPresenter())
        store.send { $0.stepOnceTapped() }
        withKnownIssue {
            store.skipStates(count)
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("asked to skip \(count) state(s)")
        }
        store.skipStates(1)
        await store.finish()
    }

    @Test("after finish() reports unasserted states, the next step goes on from the newest one")
    func stepsAfterFinishReport() async {
        let store = PresenterTestStore(TwoStepPresenter())
        store.send { $0.stepTwiceTapped() }
        await withKnownIssue {
            await store.finish()
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("never asserted")
        }

        #expect(store.state == 2)
        store.send { $0.stepOnceTapped() }
        store.expect { $0 = 3 }
        await store.finish()
    }
}

/// A presenter whose one intent publishes two states, to show the store catching the extra one.
@MainActor
private final class TwoStepPresenter: ViewStatePresenter {
    private let state = ObservableProperty(0)

    var viewState: Int { state.value }

    func observeViewState(_ handler: @escaping (Int) -> Void) -> ObservationToken {
        state.observe(options: .new) { change in
            if let value = change.newValue { handler(value) }
        }
    }

    func stepTwiceTapped() {
        state.value += 1
        state.value += 1
    }

    func stepOnceTapped() {
        state.value += 1
    }

    /// Steps in a task it starts and does not track, as a careless presenter might.
    func stepLaterTapped() {
        Task { @MainActor in self.state.value += 1 }
    }
}

/// Loads on another queue and publishes the result through a hop back to the main queue; the load
/// counts as pending work until the result is published.
@MainActor
private final class HoppingPresenter: ViewStatePresenter {
    private let state = ObservableProperty(0)
    private(set) var hasPendingWork = false

    var viewState: Int { state.value }

    func observeViewState(_ handler: @escaping (Int) -> Void) -> ObservationToken {
        state.observe(options: .new) { change in
            if let value = change.newValue { handler(value) }
        }
    }

    func loadTapped() {
        hasPendingWork = true
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(200)) {
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    self.state.value += 1
                    self.hasPendingWork = false
                }
            }
        }
    }
}
