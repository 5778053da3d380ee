import MVCObservation
import MVCPresenter

/// The list screen, headless: intents in, view-state out.
///
/// The decisions are the core's.
@MainActor
public final class PackingListPresenter: ViewStatePresenter {
    private let list: PackingList
    private let state: ObservableProperty<PackingListViewState>
    private var core: PackingListCore
    private var token: ObservationToken?

    /// A presenter for `list`, following its changes.
    public init(list: PackingList) {
        self.list = list
        core = PackingListCore(items: list.items, undoLabel: list.undoLabel)
        state = ObservableProperty(core.viewState)
        token = list.changes.subscribeToAll { [weak self] change in
            self?.send(.changed(change, undoLabel: list.undoLabel))
        }
    }

    /// What the screen shows now.
    public var viewState: PackingListViewState { state.value }

    /// Calls `handler` with each new view-state, until the token is released.
    public func observeViewState(_ handler: @escaping (PackingListViewState) -> Void)
        -> ObservationToken
    {
        state.observe(options: .new) { change in
            if let newState = change.newValue { handler(newState) }
        }
    }

    /// Opens an editor whose delegate adds an item, and saves `name` through it.
    public func addTapped(name: String) {
        let delegate = AddItemDelegate(list: list)
        do {
            try delegate.saveItem(named: name)
        } catch {
            send(.refused(error.description))
        }
    }

    /// The user packed or unpacked the item at `row` (counting from 1).
    public func packTapped(row: Int) {
        do {
            try list.togglePacked(at: row - 1)
        } catch {
            send(.refused("there is no row \(row)"))
        }
    }

    /// The user chose Undo.
    public func undoTapped() {
        if !list.undo() { send(.refused("there is nothing to undo")) }
    }

    private func send(_ event: PackingListCore.Event) {
        core.handle(event)
        state.value = core.viewState
    }
}
