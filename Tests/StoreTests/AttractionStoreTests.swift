import MVCListStore
import MVCModel
import MVCObservation
import MVCStore
import TestSupport
import Testing

@MainActor
@Suite("The attraction store")
struct AttractionStoreTests {
    private let louvre = Attraction(name: "Louvre")
    private let orsay = Attraction(name: "Orsay")
    private let eiffel = Attraction(name: "Eiffel Tower")

    @Test("adding a new attraction appends it and publishes where it went")
    func addAppends() throws {
        let store = AttractionStore([louvre])
        let log = ChangeLog(store)

        try store.add(orsay)

        #expect(store.elements == [louvre, orsay])
        #expect(log.changes == [.inserted(orsay, at: 1)])
        #expect(store.undoLabel == "Add “Orsay”")
    }

    @Test("adding at a position inserts there")
    func addAtPosition() throws {
        let store = AttractionStore([louvre, orsay])

        try store.add(eiffel, at: 1)

        #expect(store.elements == [louvre, eiffel, orsay])
    }

    @Test("replacing finds the attraction by id wherever it moved")
    func replaceByID() throws {
        let store = AttractionStore([louvre, orsay, eiffel])
        let log = ChangeLog(store)
        try store.move(from: 0, to: 2)
        var renamed = louvre
        renamed.notes = "Mona Lisa"

        try store.replace(louvre.id, with: renamed)

        #expect(store.elements == [orsay, eiffel, renamed])
        #expect(log.changes.last == .replaced(old: louvre, new: renamed, at: 2))
        #expect(store.undoLabel == "Edit “Louvre”")
    }

    @Test("replacing with an equal value changes nothing and records nothing")
    func replaceWithEqualValue() throws {
        let store = AttractionStore([louvre])
        let log = ChangeLog(store)

        try store.replace(louvre.id, with: louvre)

        #expect(log.changes.isEmpty)
        #expect(store.undoLabel == nil)
    }

    @Test("moving publishes both positions and can be undone and redone")
    func moveUndoRedo() throws {
        let store = AttractionStore([louvre, orsay, eiffel])
        let log = ChangeLog(store)

        try store.move(from: 2, to: 0)
        #expect(store.elements == [eiffel, louvre, orsay])
        try store.undo()
        #expect(store.elements == [louvre, orsay, eiffel])
        try store.redo()
        #expect(store.elements == [eiffel, louvre, orsay])

        #expect(
            log.changes == [
                .moved(eiffel, from: 2, to: 0), .moved(eiffel, from: 0, to: 2),
                .moved(eiffel, from: 2, to: 0),
            ]
        )
    }

    @Test("deleting removes the attraction, and undo puts it back where it was")
    func deleteAndUndo() throws {
        let store = AttractionStore([louvre, orsay, eiffel])
        let log = ChangeLog(store)

        let deleted = try store.delete(at: 1)
        #expect(deleted == orsay)
        #expect(store.undoLabel == "Delete “Orsay”")
        try store.undo()

        #expect(store.elements == [louvre, orsay, eiffel])
        #expect(log.changes == [.removed(orsay, at: 1), .inserted(orsay, at: 1)])
        #expect(store.redoLabel == "Delete “Orsay”")
        #expect(store.undoLabel == nil)
    }

    @Test("every edit is undone in reverse order, and a new edit clears redo")
    func undoOrder() throws {
        let store = AttractionStore()
        try store.add(louvre)
        try store.add(orsay)
        try store.move(from: 1, to: 0)

        try store.undo()
        try store.undo()
        #expect(store.elements == [louvre])
        #expect(store.redoLabel == "Add “Orsay”")

        try store.add(eiffel)
        #expect(store.redoLabel == nil)
        #expect(throws: AttractionStoreError.nothingToRedo) { try store.redo() }
    }

    @Test(
        "undo or redo of an edit whose field another process changed since is refused and dropped, the other's value kept"
    )
    func undoAfterTheSameFieldChangedElsewhere() throws {
        let store = AttractionStore([louvre])
        let mine = Attraction(id: louvre.id, name: "Louvre", notes: "mine")
        let theirs = Attraction(id: louvre.id, name: "Louvre", notes: "theirs")
        try store.replace(louvre.id, with: mine)
        store.takeIn([.replace(old: mine, new: theirs)])

        #expect(throws: AttractionStoreError.changedElsewhere("Edit “Louvre”")) {
            try store.undo()
        }
        #expect(store.elements == [theirs])
        #expect(store.undoLabel == nil)

        try store.replace(louvre.id, with: mine)
        try store.undo()
        let later = Attraction(id: louvre.id, name: "Louvre", notes: "theirs, later")
        store.takeIn([.replace(old: theirs, new: later)])
        #expect(throws: AttractionStoreError.changedElsewhere("Edit “Louvre”")) {
            try store.redo()
        }
        #expect(store.elements == [later])
        #expect(store.redoLabel == nil)
    }

    @Test(
        "an attraction another process renamed is called by its new name in the Undo and Redo labels, however its save arrives"
    )
    func labelsFollowARenameElsewhere() async throws {
        let noted = Attraction(id: louvre.id, name: "Louvre", notes: "go early")
        let renamed = Attraction(id: louvre.id, name: "Le Louvre", notes: "go early")

        let byEdits = AttractionStore([louvre])
        try byEdits.replace(louvre.id, with: noted)
        var heard: [String?] = []
        let token = byEdits.changes.subscribeToAll { heard.append($0.undoLabel) }
        byEdits.takeIn([.replace(old: noted, new: renamed)])
        #expect(heard == ["Edit “Le Louvre”"])
        try byEdits.undo()
        #expect(byEdits.redoLabel == "Edit “Le Louvre”")
        withExtendedLifetime(token) {}

        let byRows = AttractionStore([louvre, orsay])
        try byRows.delete(at: 1)
        try byRows.replace(louvre.id, with: noted)
        #expect(byRows.takeIn(changed: [(renamed, [])], deleted: []))
        #expect(byRows.undoLabel == "Edit “Le Louvre”")
        try byRows.undo()
        #expect(byRows.undoLabel == "Delete “Orsay”")

        // Renamed and named back in one batch: the label says what the list says.
        let twice = AttractionStore([louvre])
        try twice.replace(louvre.id, with: noted)
        twice.takeIn([.replace(old: noted, new: renamed), .replace(old: renamed, new: noted)])
        #expect(twice.undoLabel == "Edit “Louvre”")

        // Deleted here, renamed there: the merge brings it back under its new name.
        let revived = AttractionStore([louvre, orsay])
        try revived.delete(at: 0)
        #expect(revived.takeIn(changed: [(renamed, [])], deleted: []))
        #expect(revived.elements.first == renamed)
        #expect(revived.undoLabel == "Delete “Le Louvre”")

        let byDocument = AttractionStore([louvre])
        try byDocument.replace(louvre.id, with: noted)
        _ = await byDocument.takeIn(base: [noted], fileVersion: [renamed], notices: [])
        #expect(byDocument.elements == [renamed])
        #expect(byDocument.undoLabel == "Edit “Le Louvre”")
    }

    @Test("a refused edit throws and changes nothing")
    func refusedEdits() throws {
        let store = AttractionStore([louvre])
        let log = ChangeLog(store)

        #expect(throws: AttractionStoreError.positionOutOfRange(1, count: 1)) {
            try store.delete(at: 1)
        }
        #expect(throws: AttractionStoreError.positionOutOfRange(-1, count: 1)) {
            try store.move(from: -1, to: 0)
        }
        #expect(throws: AttractionStoreError.positionOutOfRange(3, count: 1)) {
            try store.add(orsay, at: 3)
        }
        #expect(throws: AttractionStoreError.duplicateElement(louvre.id)) {
            try store.add(louvre)
        }
        #expect(throws: AttractionStoreError.unknownElement(orsay.id)) {
            try store.replace(orsay.id, with: orsay)
        }
        #expect(throws: AttractionStoreError.mismatchedID(expected: louvre.id, found: orsay.id)) {
            try store.replace(louvre.id, with: orsay)
        }
        #expect(throws: AttractionStoreError.nothingToUndo) { try store.undo() }

        #expect(store.elements == [louvre])
        #expect(log.changes.isEmpty)
    }

    @Test("store errors count positions from 1, as a user sees them")
    func errorWording() {
        #expect(
            AttractionStoreError.positionOutOfRange(4, count: 2).description
                == "there is no attraction at position 5: the list has 2"
        )
        #expect(
            AttractionStoreError.positionOutOfRange(0, count: 0).description
                == "there is no attraction at position 1: the list is empty"
        )
    }

    @Test("a subscriber to one attraction hears only that attraction's changes")
    func keyedSubscription() throws {
        let store = AttractionStore([louvre, orsay])
        var heard: [AttractionListChange] = []
        let token = store.changes.subscribe(to: orsay.id) { heard.append($0.change) }

        try store.move(from: 1, to: 0)
        try store.delete(at: 1)

        #expect(heard == [.moved(orsay, from: 1, to: 0)])
        #expect(store.elements == [orsay])
        withExtendedLifetime(token) {}
    }
}

@Suite("A list store's notice")
struct ListStoreNoticeTests {
    @Test("prints as its message")
    func printsAsMessage() {
        let notice = ListStoreNotice(
            sequenceNumber: 3, message: "“Orsay” was deleted in another process")
        #expect("\(notice)" == "“Orsay” was deleted in another process")
    }
}
