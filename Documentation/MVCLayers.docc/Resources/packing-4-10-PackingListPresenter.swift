import MVCObservation
import MVCPresenter
import MVCStore

/// The list screen, headless: intents in, view-state out. The decisions are the core's.
@MainActor
public final class PackingListPresenter: ViewStatePresenter {
    private let store: ListStore<Item>
    private let manager: PackingManager
    private var core: PackingListCore
    private let state: ObservableProperty<PackingListViewState>
    private var storeToken: ObservationToken?

    public init(store: ListStore<Item>, manager: PackingManager) {
        self.store = store
        self.manager = manager
        core = PackingListCore(items: store.elements, undoLabel: store.undoLabel)
        state = ObservableProperty(core.viewState)
        storeToken = store.changes.subscribeToAll { [weak self] in self?.send(.changed($0)) }
    }

    public var viewState: PackingListViewState { state.value }

    public func observeViewState(_ handler: @escaping (PackingListViewState) -> Void)
        -> ObservationToken
    {
        state.observe(options: .new) { if let new = $0.newValue { handler(new) } }
    }

    private func send(_ event: PackingListCore.Event) {
        core.handle(event)
        state.value = core.viewState
    }
}
