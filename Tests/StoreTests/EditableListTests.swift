import Foundation
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

@Suite("A list whose ids are indexed after it is shown")
struct UnindexedListTests {
    /// Elements named by number, and the same edits applied to a list indexed at once and to
    /// one made with distinct ids, whose ids are indexed at the first edit or lookup.
    @Test(
        "a list made with distinct ids is not indexed until asked, and then edits, finds and refuses as an indexed one",
        arguments: [0, 1, 2, 3, 4])
    func sameAsIndexed(firstEdit: Int) throws {
        let elements = (0..<50).map { Attraction(name: "Place \($0)") }
        var indexed = EditableList(elements)
        var unindexed = EditableList(distinctIDs: elements)
        #expect(!unindexed.isIndexed)
        // Read without a lookup: no index is built.
        #expect(unindexed.elements == elements)
        #expect(unindexed.contains(elements[7].id))
        #expect(!unindexed.contains(Attraction(name: "Cluny").id))
        #expect(!unindexed.isIndexed)

        let newcomer = Attraction(name: "Cluny")
        let renamed = Attraction(id: elements[9].id, name: "Renamed", notes: "")
        let edits: [ListEdit<Attraction>] = [
            .insert(newcomer, at: 3), .remove(elements[20], at: 20),
            .move(elements[30].id, from: 30, to: 2), .replace(old: elements[9], new: renamed),
            .insert(elements[0], at: 0),  // refused: the id is listed
        ]
        for edit in edits[firstEdit...] + edits[..<firstEdit] {
            #expect(unindexed.apply(edit) == indexed.apply(edit), "\(edit)")
            #expect(unindexed.isIndexed)
        }
        #expect(unindexed.elements == indexed.elements)
        for (position, element) in indexed.elements.enumerated() {
            #expect(unindexed.index(of: element.id) == position)
        }
        #expect(unindexed.index(of: elements[20].id) == nil)
    }
}

@MainActor
@Suite("A store opened with a list whose ids are indexed after it is shown")
struct StoreIndexingTests {
    @Test("the index built on another thread finds every element where it is")
    func indexArrives() async {
        let elements = (0..<20_000).map { Attraction(name: "Place \($0)") }
        let store = ListStore(EditableList(distinctIDs: elements))
        await store.finishIndexing()

        #expect(elements.indices.allSatisfy { store.position(of: elements[$0].id) == $0 })
        #expect(store.element(withID: Attraction(name: "Cluny").id) == nil)
    }

    @Test(
        "an edit made before the index arrives is found where it put things, and the late index is let go"
    )
    func editBeforeTheIndex() async throws {
        let elements = (0..<20_000).map { Attraction(name: "Place \($0)") }
        let store = ListStore(EditableList(distinctIDs: elements))
        let first = Attraction(name: "Cluny")
        // Before the index can arrive: every position after it is now one more.
        try store.add(first, at: 0)
        try store.delete(at: 500)
        await store.finishIndexing()

        let expected = [first] + elements[..<499] + elements[500...]
        #expect(store.elements == expected)
        #expect(expected.indices.allSatisfy { store.position(of: expected[$0].id) == $0 })
        #expect(store.position(of: elements[499].id) == nil)
    }

    @Test(
        "another process's whole list taken in before the index arrives leaves every position right"
    )
    func wholeListBeforeTheIndex() async {
        let elements = (0..<50_000).map { Attraction(name: "Place \($0)") }
        let store = ListStore(EditableList(distinctIDs: elements))
        // The first deleted there, one renamed, one added at the end.
        var theirs = Array(elements.dropFirst())
        theirs[10] = Attraction(id: theirs[10].id, name: "Renamed")
        theirs.append(Attraction(name: "Cluny"))
        _ = await store.takeIn(base: elements, fileVersion: theirs, notices: [])
        await store.finishIndexing()

        #expect(store.elements == theirs)
        #expect(theirs.indices.allSatisfy { store.position(of: theirs[$0].id) == $0 })
        #expect(store.position(of: elements[0].id) == nil)
    }

    @Test(
        "a store whose last reference goes away on another thread while it indexes is freed there")
    func releasedOnAnotherThread() async {
        let elements = (0..<200_000).map { Attraction(name: "Place \($0)") }
        let handoff = Handoff<ListStore<Attraction>>()
        weak var released: ListStore<Attraction>?
        do {
            let store = ListStore(EditableList(distinctIDs: elements))
            released = store
            handoff.put(store)
        }
        // The only reference left is the handoff's: taken and dropped on another thread.
        await Task.detached { _ = handoff.take() }.value

        #expect(released == nil)
    }

    @Test("a store released while its index is built is freed at once, not held by the indexing")
    func releasedWhileIndexing() {
        let elements = (0..<200_000).map { Attraction(name: "Place \($0)") }
        weak var released: ListStore<Attraction>?
        do {
            let store = ListStore(EditableList(distinctIDs: elements))
            released = store
        }
        #expect(released == nil)
    }
}

/// Holds one value for another thread to take.
private final class Handoff<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value?  // guarded by `lock`

    func put(_ value: Value) { lock.withLock { self.value = value } }
    func take() -> Value? {
        lock.withLock {
            defer { value = nil }
            return value
        }
    }
}
