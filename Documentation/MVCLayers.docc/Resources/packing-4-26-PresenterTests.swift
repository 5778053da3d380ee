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
}
