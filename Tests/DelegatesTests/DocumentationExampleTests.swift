import MVCDelegates
import MVCDocumentStore
import MVCListStore
import MVCModel
import MVCStore
import Testing

/// The example of the MVCDelegates documentation article, compiled and run so it cannot rot.
@MainActor
@Suite("The documentation's example")
struct DelegatesDocumentationExampleTests {
    @Test("the MVCDelegates overview example saves a new attraction through a delegate")
    func overviewExample() throws {
        // BEGIN MVCDelegates example
        let store = AttractionStore()
        let delegate = CreateAttractionDelegate(store: store)
        try delegate.saveElement(Attraction(id: delegate.newElement.id, name: "Louvre"))
        // END MVCDelegates example

        #expect(store.elements.map(\.name) == ["Louvre"])
    }
}
