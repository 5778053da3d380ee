import MVCListStore
import MVCModel
import MVCStore
import Testing

@Suite("An editable list made from elements")
struct EditableListTests {
    @Test("a list made from elements that repeat an id keeps the first of each, and finds each id")
    func repeatedIDsKeepTheFirst() {
        let louvre = Attraction(name: "Louvre")
        let orsay = Attraction(name: "Orsay")
        let again = Attraction(id: louvre.id, name: "Louvre again")
        var list = EditableList([louvre, orsay, again, orsay])

        #expect(list.elements.map(\.name) == ["Louvre", "Orsay"])
        #expect(list.index(of: louvre.id) == 0)
        #expect(list.index(of: orsay.id) == 1)
        #expect(list.index(of: Attraction(name: "Cluny").id) == nil)
    }

    @Test("a list made from elements with distinct ids keeps them in order, and finds each id")
    func distinctIDs() {
        let names = ["Louvre", "Orsay", "Cluny", "Rodin"]
        let elements = names.map { Attraction(name: $0) }
        var list = EditableList(elements)

        #expect(list.elements == elements)
        #expect(elements.indices.allSatisfy { list.index(of: elements[$0].id) == $0 })
        #expect(list.index(of: Attraction(name: "Cluny").id) == nil)
    }
}
