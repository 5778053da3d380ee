import MVCListStore
import MVCObservation
import MVCPresenter
import MVCTracing

/// The list screen, headless: intents in, view-state out.
@MainActor
public final class PackingListPresenter {
    private let store: ListStore<Item>
    private let manager: PackingManager
    private var core: PackingListCore
    private let state: ObservableProperty<PackingListViewState>
    private var storeToken: ObservationToken?
    private let tracer: HopTracer

    /// A presenter of `store`'s items, weighing them through `manager`.
    public init(store: ListStore<Item>, manager: PackingManager, tracer: HopTracer = .disabled) {
        self.tracer = tracer
        self.store = store
        self.manager = manager
        core = PackingListCore(items: store.elements, undoLabel: store.undoLabel)
        state = ObservableProperty(core.viewState)
        storeToken = store.changes.subscribeToAll { [weak self] in self?.send(.changed($0)) }
    }

    /// An editor on a new item, whose delegate adds it.
    public func newTapped() -> ItemEditor {
        ItemEditor(editing: Item(name: ""), delegate: AddItemDelegate(store: store, tracer: tracer))
    }

    /// An editor on the item in `row` (from 1), whose delegate edits it; `nil` if there is none.
    public func editTapped(row: Int) -> ItemEditor? {
        guard let item = item(at: row) else { return nil }
        let delegate = EditItemDelegate(store: store, original: item, tracer: tracer)
        return ItemEditor(editing: item, delegate: delegate)
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

    /// One subscription per weighed item: the row hears only its own item's weight.
    private var weightTokens: [String: ObservationToken] = [:]

    /// Looks up the weight of the item in `row`; a weight already known is not asked again.
    public func weighTapped(row: Int) async {
        guard let name = item(at: row)?.name else { return }
        if let grams = manager.grams(of: name) {
            send(.weighed(WeightUpdate(name: name, grams: grams)))
            return
        }
        let key = WeightUpdate.key(for: name)
        if weightTokens[key] == nil {
            weightTokens[key] = manager.weightUpdates.subscribe(to: key) { [weak self] in
                self?.send(.weighed($0))
            }
        }
        await manager.lookUp(name)
    }

    private func send(_ event: PackingListCore.Event) {
        if case .changed(let update) = event {
            let summary = update.change.summary
            tracer.record(from: .observation, to: .presenter, "send(.changed(\(summary)))")
        }
        core.handle(event)
        guard core.viewState != state.value else { return }
        tracer.record(from: .presenter, to: .view, "list view state changed")
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
