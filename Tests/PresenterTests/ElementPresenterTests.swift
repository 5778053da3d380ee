import Foundation
import MVCDelegates
import MVCElements
import MVCListStore
import MVCModel
import MVCObservation
import MVCPresenter
import MVCPresenterTesting
import MVCStore
import Testing

/// An importer's own element: no problem enum, a number field, one field listed on the row.
private struct Book: ListElement {
    var id: UUID
    var title = ""
    var author = ""
    var pages = 0

    static var noun: String { "book" }
    static let fields: [ElementField<Book>] = [
        ElementField(
            "title", \.title, rule: { $0.isEmpty ? [FieldProblem("a book needs a title")] : [] }),
        ElementField("author", \.author, listed: true),
        ElementField("pages", \.pages),
    ]

    init(blankWithID id: UUID) { self.id = id }
}

@MainActor
@Suite("The list and editor presenters, for an element type of an importer's own")
struct ElementPresenterTests {
    private func row(_ book: Book) -> ElementListViewState<Book>.Row {
        .init(
            id: book.id.uuidString, name: book.title,
            parts: book.author.isEmpty ? [] : [book.author])
    }

    @Test(
        "adding in one step types the first field, and the row shows the title and the listed field"
    )
    func addInOneStep() async throws {
        let store = ListStore<Book>()
        let list = PresenterTestStore(
            ElementListPresenter(store: store, newElement: { Book(blankWithID: UUID()) }))
        #expect(list.state.emptyMessage == "No books yet.")

        #expect(list.send { $0.addTapped(name: "Dune") })
        let dune = try #require(store.elements.first)
        await list.receive {
            $0.rows = [row(dune)]
            $0.undo = .init(title: "Undo Add “Dune”", isEnabled: true)
        }
        #expect(!list.send { $0.addTapped(name: "") })
        list.expect { $0.lastError = "a book needs a title" }
        await list.finish()
    }

    @Test(
        "the editor shows every described field, reads a number from its text, and saves through its delegate"
    )
    func editThroughTheDelegate() async throws {
        var dune = Book(blankWithID: UUID())
        dune.title = "Dune"
        let store = ListStore<Book>([dune])
        let list = PresenterTestStore(
            ElementListPresenter(store: store, newElement: { Book(blankWithID: UUID()) }))

        let editor = PresenterTestStore(try #require(list.send { $0.editTapped(at: 0) }))
        #expect(editor.state.fields.map(\.name) == ["title", "author", "pages"])
        editor.send { $0.fieldChanged("pages", to: "many") }
        editor.expect {
            $0[field: "pages"]?.text = "many"
            $0[field: "pages"]?.message = "the pages cannot be “many”"
            $0.isSaveEnabled = false
        }
        editor.send { $0.fieldChanged("pages", to: "412") }
        editor.expect {
            $0[field: "pages"]?.text = "412"
            $0[field: "pages"]?.message = nil
            $0.isSaveEnabled = true
        }
        editor.send { $0.fieldChanged("author", to: "Frank Herbert") }
        editor.expect { $0[field: "author"]?.text = "Frank Herbert" }
        #expect(editor.send { $0.saveTapped() })
        editor.expect { $0.phase = .saved }

        var edited = dune
        (edited.author, edited.pages) = ("Frank Herbert", 412)
        #expect(store.elements == [edited])
        await list.receive {
            $0.rows = [row(edited)]
            $0.undo = .init(title: "Undo Edit “Dune”", isEnabled: true)
        }
        await editor.finish()
        await list.finish()
    }

    @Test("the catalog's example: a presenter of books, and a book added in one step")
    func catalogExample() {
        // BEGIN ElementListPresenter example
        let store = ListStore<Book>()
        let books = ElementListPresenter(store: store, newElement: { Book(blankWithID: UUID()) })
        books.addTapped(name: "Dune")  // the first described field, then saved through its delegate
        // END ElementListPresenter example
        #expect(books.viewState.rows.map(\.name) == ["Dune"])
        #expect(store.elements.map(\.title) == ["Dune"])
    }
}

@MainActor
@Suite("A list presenter whose store is edited while it hears another process's batch")
struct ReentrantBatchTests {
    @Test(
        "a subscriber that deletes a row as a batch is delivered leaves the presenter's rows as the store's"
    )
    func editDuringDelivery() {
        let louvre = Attraction(name: "Louvre")
        let store = AttractionStore([louvre, Attraction(name: "Pantheon")])
        var deleted = false
        let token = store.changes.subscribeToAll { _ in
            guard !deleted else { return }
            deleted = true
            _ = try? store.delete(at: 0)
        }
        let list = AttractionListPresenter(store: store)
        let orsay = Attraction(name: "Orsay")
        let eiffel = Attraction(name: "Eiffel Tower")
        #expect(store.takeIn(changed: [(orsay, [louvre.id]), (eiffel, [orsay.id])], deleted: []))

        #expect(list.viewState.rows.map(\.name) == store.elements.map(\.name))
        withExtendedLifetime(token) {}
    }
}
