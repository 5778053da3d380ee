import MVCObservation
import MVCPresenter
import MVCPresenterTesting
import Testing

/// A presenter whose work does not end until the test says: a service that never answers.
@MainActor
private final class NeverFinishingPresenter: ViewStatePresenter {
    struct ViewState: Equatable, Sendable { var text = "" }
    private(set) var viewState = ViewState()
    private let property = ObservableProperty(ViewState())
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var isAnswered = false

    var hasPendingWork: Bool { !isAnswered }

    func observeViewState(_ handler: @escaping (ViewState) -> Void) -> ObservationToken {
        property.observe(options: .new) { change in
            if let state = change.newValue { handler(state) }
        }
    }

    func pendingWorkFinished() async {
        guard !isAnswered else { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Ends the work at last, so nothing waits on it once the test is over.
    func answer() {
        isAnswered = true
        for waiter in waiting { waiter.resume() }
        waiting.removeAll()
    }
}

@MainActor
@Suite("The presenter test store, with work that never ends")
struct NeverFinishingWorkTests {
    @Test("finish and receive fail after their patience, naming the work still running, and return")
    func patienceEndsTheWait() async {
        let presenter = NeverFinishingPresenter()
        defer { presenter.answer() }
        let store = PresenterTestStore(presenter, patience: .milliseconds(200))
        await withKnownIssue {
            await store.receive { $0.text = "never" }
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("was still running after")
        }
        await withKnownIssue {
            await store.finish()
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("still running at the end of the test")
        }
    }
}
