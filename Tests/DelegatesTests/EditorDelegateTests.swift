import MVCDelegates
import MVCDocumentStore
import MVCListStore
import MVCModel
import MVCObservation
import MVCStore
import MVCTracing
import Synchronization
import Testing

/// The two ways an editor can be opened, each with the delegate that goes with it.
enum DelegateKind: String, CaseIterable, CustomTestStringConvertible {
    case create
    case edit

    var testDescription: String { rawValue }

    /// A store holding two attractions, a delegate of this kind, and the attraction its editor opens on.
    @MainActor
    func makeEditing() -> (
        store: AttractionStore, delegate: any ElementEditorDelegate<Attraction>, opened: Attraction
    ) {
        let existing = [
            Attraction(name: "Louvre"), Attraction(name: "Orsay", notes: "Impressionists"),
        ]
        let store = AttractionStore(existing)
        switch self {
        case .create:
            let delegate = CreateAttractionDelegate(store: store)
            return (store, delegate, delegate.newElement)
        case .edit:
            return (store, EditAttractionDelegate(editing: existing[1], in: store), existing[1])
        }
    }
}

extension Ideas {
    @MainActor
    @Suite("Both editor delegates")
    struct EditorDelegateContractTests {
        @Test(
            "saving puts the edited attraction in the store under the id the editor opened with",
            arguments: DelegateKind.allCases)
        func saveLandsInStore(kind: DelegateKind) throws {
            let (store, delegate, opened) = kind.makeEditing()
            let edited = Attraction(id: opened.id, name: "Musée Rodin", notes: "The Thinker")

            try delegate.saveElement(edited)

            #expect(store.element(withID: opened.id) == edited)
        }

        @Test(
            "saving is one undoable edit, published as one change", arguments: DelegateKind.allCases
        )
        func saveIsOneEdit(kind: DelegateKind) throws {
            let (store, delegate, opened) = kind.makeEditing()
            let before = store.elements
            var changes: [AttractionListChange] = []
            let token = store.changes.subscribeToAll { changes.append($0.change) }

            try delegate.saveElement(Attraction(id: opened.id, name: "Musée Rodin"))
            try store.undo()

            #expect(changes.count == 2)
            #expect(store.elements == before)
            withExtendedLifetime(token) {}
        }

        @Test("cancelling changes nothing in the store", arguments: DelegateKind.allCases)
        func cancelChangesNothing(kind: DelegateKind) {
            let (store, delegate, _) = kind.makeEditing()
            let before = store.elements

            delegate.cancelEditing()

            #expect(store.elements == before)
            #expect(store.undoLabel == nil)
        }

        @Test(
            "a released delegate is deallocated, and the store does not hold on to it",
            arguments: DelegateKind.allCases)
        func delegateDeallocates(kind: DelegateKind) throws {
            let store: AttractionStore
            weak var weakDelegate: (any ElementEditorDelegate<Attraction>)?
            do {
                let (madeStore, delegate, opened) = kind.makeEditing()
                store = madeStore
                weakDelegate = delegate
                try delegate.saveElement(Attraction(id: opened.id, name: "Musée Rodin"))
            }

            #expect(weakDelegate == nil)
            #expect(store.count >= 2)
        }
    }
}

extension Ideas {
    @MainActor
    @Suite("Each editor delegate")
    struct EditorDelegateTests {
        @Test("the create delegate adds at the end of the list")
        func createAppends() throws {
            let store = AttractionStore([Attraction(name: "Louvre")])
            let delegate = CreateAttractionDelegate(store: store)

            try delegate.saveElement(Attraction(id: delegate.newElement.id, name: "Orsay"))

            #expect(store.elements.map(\.name) == ["Louvre", "Orsay"])
            #expect(store.undoLabel == "Add “Orsay”")
        }

        @Test("the create delegate refuses to add the same attraction twice")
        func createTwice() throws {
            let store = AttractionStore()
            let delegate = CreateAttractionDelegate(store: store)
            let new = Attraction(id: delegate.newElement.id, name: "Orsay")
            try delegate.saveElement(new)

            #expect(throws: AttractionEditorError.alreadySaved) {
                try delegate.saveElement(new)
            }
        }

        @Test(
            "the edit delegate replaces the attraction it was made for, even after the list was reordered"
        )
        func editAfterReorder() throws {
            let louvre = Attraction(name: "Louvre")
            let orsay = Attraction(name: "Orsay")
            let store = AttractionStore([louvre, orsay])
            let delegate = EditAttractionDelegate(editing: louvre, in: store)
            try store.move(from: 0, to: 1)

            try delegate.saveElement(
                Attraction(id: louvre.id, name: "Louvre", notes: "Mona Lisa"))

            #expect(store.elements.map(\.notes) == ["", "Mona Lisa"])
            #expect(store.elements.map(\.name) == ["Orsay", "Louvre"])
        }

        @Test("the edit delegate reports an attraction deleted meanwhile, and changes nothing")
        func editDeleted() throws {
            let louvre = Attraction(name: "Louvre")
            let store = AttractionStore([louvre])
            let delegate = EditAttractionDelegate(editing: louvre, in: store)
            try store.delete(at: 0)

            #expect(throws: AttractionEditorError.elementGone) {
                try delegate.saveElement(Attraction(id: louvre.id, name: "Louvre"))
            }
            #expect(store.elements.isEmpty)
        }

        @Test("the delegates trace what they ask of the store as hops from the delegate layer")
        func reports() throws {
            let louvre = Attraction(name: "Louvre")
            let store = AttractionStore([louvre])
            let hops = Mutex<[String]>([])
            let tracer = HopTracer { hop in
                if hop.from == .delegate { hops.withLock { $0.append(hop.description) } }
            }
            let create = CreateAttractionDelegate(store: store, tracer: tracer)
            let edit = EditAttractionDelegate(editing: louvre, in: store, tracer: tracer)

            try create.saveElement(Attraction(id: create.newElement.id, name: "Orsay"))
            try edit.saveElement(Attraction(id: louvre.id, name: "Le Louvre"))

            #expect(
                hops.withLock { $0 } == [
                    "delegate → store: add(“Orsay”)",
                    "delegate → store: mergeEdit(of: “Louvre”, result: “Le Louvre”)",
                ])
        }
    }
}

/// A delegate that cares about cancelling.
@MainActor
private final class CancelCountingDelegate: ElementEditorDelegate {
    var cancellations = 0
    func saveElement(_ attraction: Attraction) throws(AttractionEditorError) {}
    func cancelEditing() { cancellations += 1 }
}

extension Ideas {
    @MainActor
    @Suite("Cancel is always delivered")
    struct CancelDeliveryTests {
        @Test(
            "a delegate that implements cancelEditing is called through the protocol (the post-004 bug cannot happen)"
        )
        func implementedCancelIsCalled() {
            let counting = CancelCountingDelegate()
            let delegate: any ElementEditorDelegate<Attraction> = counting

            delegate.cancelEditing()

            #expect(counting.cancellations == 1)
        }
    }
}
