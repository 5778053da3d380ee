import AttractionsStorage
import Foundation
import MVCDelegates
import MVCDocumentStore
import MVCElements
import MVCListStore
import MVCModel
import MVCObservation
import MVCPresenter
import MVCPresenterTesting
import MVCStore
import Testing

@MainActor
@Suite("The list presenter when the store changes during a delivery")
struct AttractionListReentrancyTests {
    @Test("a subscriber registered first that edits the store mid-delivery leaves the rows right")
    func earlierSubscriberEditsDuringDelivery() throws {
        let store = AttractionStore([Attraction(name: "Louvre")])
        // Registered before the presenter: on every insert, it deletes the first row, so by the
        // time the presenter hears of the insert the store has already moved on.
        var isDeleting = false
        let meddler = store.changes.subscribeToAll { update in
            guard case .inserted = update.change, !isDeleting else { return }
            isDeleting = true
            _ = try? store.delete(at: 0)
            isDeleting = false
        }
        let list = AttractionListPresenter(store: store)

        try store.add(Attraction(name: "Orsay"))
        try store.add(Attraction(name: "Eiffel Tower"), at: 0)

        #expect(list.viewState.rows.map(\.name) == store.elements.map(\.name))
        #expect(list.viewState.rows.map(\.name) == ["Orsay"])
        _ = meddler
    }

    @Test("a position near Int.max is refused with a message, not a trap")
    func positionsAtTheLimits() {
        let list = AttractionListPresenter(store: AttractionStore())

        #expect(list.editTapped(at: Int.max) == nil)
        #expect(
            list.viewState.lastError
                == "there is no attraction at position 9223372036854775808: the list is empty")
        #expect(!list.moveTapped(from: Int.min, to: Int.max))
        #expect(!list.deleteTapped(at: Int.max - 1))
    }
}
