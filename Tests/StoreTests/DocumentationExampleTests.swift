import Foundation
import MVCElements
import MVCListStore
import MVCObservation
import Testing

// BEGIN MVCElements example
struct Book: ListElement, Codable {
    let id: UUID
    var title = ""
    var pages = 1

    static let noun = "book"
    static let fields: [ElementField<Book>] = [
        ElementField(
            "title", \.title, rule: { $0.isEmpty ? [FieldProblem("a book needs a title")] : [] }),
        ElementField(
            "pages", \.pages,
            parse: { text in
                Int(text).map { .success($0) }
                    ?? .failure(FieldProblem("“\(text)” is not a number"))
            },
            listed: true),
    ]
}

extension Book {
    init(blankWithID id: UUID) { self.init(id: id) }
}
// Book(blankWithID: UUID()).problems == [FieldProblem("a book needs a title")]
// END MVCElements example

/// The examples of the MVCElements and MVCListStore documentation articles, compiled and run so
/// they cannot rot: an importer's own element, in a store that links no sample's domain.
@MainActor
@Suite("The list store's documentation examples")
struct ListStoreDocumentationExampleTests {
    @Test("the MVCElements example describes a book whose rules the store and an editor keep")
    func elementsExample() throws {
        #expect(Book(blankWithID: UUID()).problems == [FieldProblem("a book needs a title")])
        var draft = ElementDraft(editing: Book(blankWithID: UUID()))
        draft.setText("Middlemarch", ofField: "title")
        draft.setText("many", ofField: "pages")
        #expect(
            draft.problems.map(\.description) == ["“many” is not a number"])
        draft.setText("880", ofField: "pages")
        let book = try draft.validated().get()
        #expect(book.title == "Middlemarch" && book.pages == 880)
        #expect(book.listedParts == ["pages 880"])
    }

    @Test("the MVCListStore overview example hears an add and its undo")
    func overviewExample() throws {
        // BEGIN MVCListStore example
        let store = ListStore<Book>()
        var heard: [String] = []
        let token = store.changes.subscribeToAll { update in
            heard.append(update.change.summary)
        }
        try store.add(Book(id: UUID(), title: "Middlemarch"))
        try store.undo()
        // heard == ["“Middlemarch” inserted at 0", "“Middlemarch” removed from 0"]
        // END MVCListStore example

        #expect(heard == ["“Middlemarch” inserted at 0", "“Middlemarch” removed from 0"])
        #expect(throws: ListStoreError<Book>.self) { try store.add(Book(id: UUID())) }
        withExtendedLifetime(token) {}
    }
}
