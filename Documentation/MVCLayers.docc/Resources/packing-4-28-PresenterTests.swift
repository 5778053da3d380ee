import MVCListStore
import MVCPresenterTesting
import PackingCore
import Testing

@MainActor
@Suite("The presenters, step by step")
struct PresenterTests {
    @Test("an editor opened on a row saves through its delegate, and the list shows the change")
    func editThroughTheDelegate() async throws {
        let store = ListStore<Item>([Item(name: "Socks")])
        let list = PackingListPresenter(
            store: store, manager: PackingManager(service: SimulatedWeights([:])))
        let screen = PresenterTestStore(list)
        let editor = try #require(list.editTapped(row: 1))

        editor.fieldChanged("quantity", to: "2")
        #expect(editor.saveTapped())
        screen.expect {
            $0.rows[0].quantity = 2
            $0.undoLabel = "Edit “Socks”"
        }
        await screen.finish()
    }

    @Test("cancel reaches the delegate, ends the edit, and nothing is saved")
    func cancelIsDelivered() {
        final class Counting: ItemEditorDelegate {
            var saved = 0, cancelled = 0
            func saveItem(_ item: Item) throws(ItemEditorError) { saved += 1 }
            func cancelEditing() { cancelled += 1 }
        }
        let delegate = Counting()
        let editor = ItemEditor(editing: Item(name: "Hat"), delegate: delegate)

        editor.cancelTapped()

        #expect(delegate.cancelled == 1 && delegate.saved == 0)
        #expect(!editor.viewState.isOpen)
    }

    @Test("a refused save keeps the editor open and says why")
    func refusedSave() {
        let store = ListStore<Item>()
        let editor = ItemEditor(editing: Item(name: ""), delegate: AddItemDelegate(store: store))

        #expect(!editor.saveTapped())
        #expect(editor.viewState.error == "an item needs a name")
        #expect(editor.viewState.isOpen && store.elements.isEmpty)
    }
}
