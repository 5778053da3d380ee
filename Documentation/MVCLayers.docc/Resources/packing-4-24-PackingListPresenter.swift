import MVCListStore
import MVCObservation
import MVCPresenter

/// The list screen, headless: intents in, view-state out.
@MainActor
public final class PackingListPresenter {
    private let store: ListStore<Item>
    private let manager: PackingManager
    private var core: PackingListCore
    private let state: ObservableProperty<PackingListViewState>
    private var storeToken: ObservationToken?

    /// A presenter of `store`'s items, weighing them through `manager`.
    public init(store: ListStore<Item>, manager: PackingManager) {
        self.store = store
        self.manager = manager
        core = PackingListCore(items: store.elements, undoLabel: store.undoLabel)
        state = ObservableProperty(core.viewState)
        storeToken = store.changes.subscribeToAll { [weak self] in self?.send(.changed($0)) }
    }

    /// An editor on a new item, whose delegate adds it.
    public func newTapped() -> ItemEditor {
        ItemEditor(editing: Item(name: ""), delegate: AddItemDelegate(store: store))
    }

    /// An editor on the item in `row` (from 1), whose delegate edits it; `nil` if there is none.
    public func editTapped(row: Int) -> ItemEditor? {
        guard let item = item(at: row) else { return nil }
        return ItemEditor(editing: item, delegate: EditItemDelegate(store: store, original: item))
    }

    private func item(at row: Int) -> Item? {
        guard row > 0, let item = try? store.element(at: row - 1) else {
            send(.refused("there is no row \(row)"))
            return nil
        }
        return item
    }

    /// Adds an item named `name` in one step, through the same editor and delegate as `new`.
    @discardableResult
    public func addTapped(name: String) -> Bool {
        let editor = newTapped()
        editor.fieldChanged("name", to: name)
        guard editor.saveTapped() else {
            send(.refused(editor.viewState.error ?? "not added"))
            return false
        }
        return true
    }

    /// Packs or unpacks the item in `row`.
    public func packTapped(row: Int) {
        guard var item = item(at: row) else { return }
        item.isPacked.toggle()
        do { try store.replace(item.id, with: item) } catch { send(.refused(error.description)) }
    }

    /// The user chose Undo.
    public func undoTapped() {
        do { try store.undo() } catch { send(.refused(error.description)) }
    }

    /// The user chose Redo.
    public func redoTapped() {
        do { try store.redo() } catch { send(.refused(error.description)) }
    }

    private func send(_ event: PackingListCore.Event) {
        core.handle(event)
        state.value = core.viewState
    }
}

/// What every presenter offers a view: its view-state, and a way to follow it.
extension PackingListPresenter: ViewStatePresenter {
    /// What the list shows now.
    public var viewState: PackingListViewState { state.value }

    /// Calls `handler` with each new view-state, until the token is released.
    public func observeViewState(_ handler: @escaping (PackingListViewState) -> Void)
        -> ObservationToken
    {
        state.observe(options: .new) { if let new = $0.newValue { handler(new) } }
    }
}
