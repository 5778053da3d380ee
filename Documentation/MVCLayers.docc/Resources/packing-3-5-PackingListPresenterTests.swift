import MVCPresenterTesting
import PackingCore
import Testing

@MainActor
@Suite("The packing list screen")
struct PackingListPresenterTests {
    @Test("adding, packing and undoing, each state asserted as a change to the one before")
    func stepByStep() async {
        let store = PresenterTestStore(PackingListPresenter(list: PackingList()))

        store.send { $0.addTapped(name: "Socks") }
        store.expect {
            $0.rows = [.init(name: "Socks", isPacked: false)]
            $0.itemsLeft = 1
            $0.undoTitle = "Undo Add “Socks”"
        }
        store.send { $0.packTapped(row: 1) }
        store.expect {
            $0.rows[0].isPacked = true
            $0.itemsLeft = 0
            $0.undoTitle = "Undo Pack “Socks”"
        }
        store.send { $0.packTapped(row: 7) }
        store.expect { $0.error = "there is no row 7" }
        store.send { $0.undoTapped() }
        store.expect {
            $0.rows[0].isPacked = false
            $0.itemsLeft = 1
            $0.undoTitle = "Undo Add “Socks”"
            $0.error = nil
        }
        await store.finish()
    }

    @Test("create and edit are two delegates behind one protocol; cancelling is optional")
    func delegates() throws {
        let list = PackingList()
        let adding: any ItemEditorDelegate = AddItemDelegate(list: list)
        try adding.saveItem(named: "Hat")
        adding.cancelEditing()  // the default: nothing happens

        let renaming = RenameItemDelegate(list: list, row: 0)
        try renaming.saveItem(named: "Sun hat")
        renaming.cancelEditing()
        #expect(throws: ItemEditorError(description: "an item needs a name")) {
            try renaming.saveItem(named: "  ")
        }

        #expect(list.items.map(\.name) == ["Sun hat"])
        #expect(renaming.cancellations == 1)
        #expect(throws: ItemEditorError(description: "there is no row 5")) {
            try RenameItemDelegate(list: list, row: 4).saveItem(named: "Scarf")
        }
    }

    @Test("the core counts what is left to pack from the events alone")
    func core() {
        var core = PackingListCore(items: [], undoLabel: nil)
        let hat = Item(name: "Hat")
        core.handle(.changed(.added(hat, at: 0), undoLabel: "Add “Hat”"))
        #expect(core.viewState.itemsLeft == 1)
        core.handle(.changed(.removed(hat, at: 0), undoLabel: nil))
        #expect(core.viewState.itemsLeft == 0)
        #expect(core.viewState.undoTitle == "Undo")
    }
}
