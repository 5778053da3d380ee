import MVCListStore
import MVCModel
import MVCObservation
import MVCPresenter
import MVCStore
import Testing

/// The detail editor's decisions, transition by transition: no presenter, no delegate, no tasks.
extension Ideas {
    @Suite("The attraction editor's core")
    struct AttractionEditorCoreTests {
        private let louvre = Attraction(name: "Louvre", notes: "")

        @Test("typing updates the fields and their messages and asks for nothing")
        func typing() {
            var core = AttractionEditorCore(editing: louvre)

            #expect(core.handle(.fieldChanged("name", to: "")) == [])
            #expect(core.viewState[field: "name"]?.message == "an attraction needs a name")
            #expect(!core.viewState.isSaveEnabled)
            #expect(core.handle(.fieldChanged("name", to: "Orsay")) == [])
            #expect(core.handle(.fieldChanged("notes", to: "Van Gogh")) == [])
            #expect(core.viewState[field: "name"]?.text == "Orsay")
            #expect(core.viewState[field: "notes"]?.text == "Van Gogh")
            #expect(core.viewState.isSaveEnabled)
        }

        @Test("Save with a valid draft asks the delegate, and its yes ends the edit as saved")
        func saveAccepted() {
            var core = AttractionEditorCore(editing: louvre)
            core.handle(.fieldChanged("name", to: "Orsay"))

            #expect(
                core.handle(.saveTapped) == [
                    .askDelegateToSave(Attraction(id: louvre.id, name: "Orsay", notes: ""))
                ])
            #expect(core.viewState.phase == .editing)
            #expect(core.handle(.delegateAccepted) == [.releaseDelegate])
            #expect(core.viewState.phase == .saved)
            #expect(!core.isEditing)
        }

        @Test("Save with an invalid draft shows the first problem and asks nobody")
        func saveInvalid() {
            var core = AttractionEditorCore(editing: louvre)
            core.handle(.fieldChanged("name", to: " "))

            #expect(core.handle(.saveTapped) == [])
            #expect(core.viewState.saveError != nil)
            #expect(core.isEditing)
            // Typing again clears the old refusal: it answered another draft.
            core.handle(.fieldChanged("name", to: "Orsay"))
            #expect(core.viewState.saveError == nil)
        }

        @Test("a delegate's refusal reopens the edit with its reason")
        func saveRefused() {
            var core = AttractionEditorCore(editing: louvre)
            core.handle(.saveTapped)

            #expect(core.handle(.delegateRefused("gone")) == [])
            #expect(core.viewState.saveError == "gone")
            #expect(core.viewState.phase == .editing)
            #expect(core.handle(.saveTapped) == [.askDelegateToSave(louvre)])
        }

        @Test("Cancel tells the delegate, lets it go, and ends the edit unsaved")
        func cancel() {
            var core = AttractionEditorCore(editing: louvre)

            #expect(core.handle(.cancelTapped) == [.tellDelegateCancelled, .releaseDelegate])
            #expect(core.viewState.phase == .cancelled)
        }

        @Test("every event after the edit ended is ignored, in both endings")
        func finishedIgnoresEverything() {
            let events: [AttractionEditorCore.Event] = [
                .fieldChanged("name", to: "x"), .fieldChanged("notes", to: "y"), .saveTapped,
                .cancelTapped, .delegateAccepted,
                .delegateRefused("no"),
            ]
            var saved = AttractionEditorCore(editing: louvre)
            saved.handle(.saveTapped)
            saved.handle(.delegateAccepted)
            var cancelled = AttractionEditorCore(editing: louvre)
            cancelled.handle(.cancelTapped)

            for ended in [saved, cancelled] {
                for event in events {
                    var core = ended
                    #expect(core.handle(event) == [], "\(event)")
                    #expect(core == ended, "\(event) changed a finished edit")
                }
            }
        }

        @Test("while the delegate answers, intents are ignored; an answer nobody asked for too")
        func impossibleEventsAreNamed() {
            var asking = AttractionEditorCore(editing: louvre)
            asking.handle(.saveTapped)
            for event: AttractionEditorCore.Event in [
                .fieldChanged("name", to: "x"), .fieldChanged("notes", to: "y"), .saveTapped,
                .cancelTapped,
            ] {
                var core = asking
                #expect(core.handle(event) == [])
                #expect(core == asking)
            }

            let editing = AttractionEditorCore(editing: louvre)
            for event: AttractionEditorCore.Event in [.delegateAccepted, .delegateRefused("no")] {
                var core = editing
                #expect(core.handle(event) == [])
                #expect(core == editing)
            }
        }
    }
}

/// The list screen's decisions, event by event: no presenter, no store.
@Suite("The attraction list's core")
struct AttractionListCoreTests {
    private let louvre = Attraction(name: "Louvre")
    private let orsay = Attraction(name: "Orsay")

    private func update(_ change: AttractionListChange, undo: String? = nil)
        -> AttractionListCore.Event
    {
        .storeChanged(AttractionStoreUpdate(change: change, undoLabel: undo, redoLabel: nil))
    }

    @Test("each kind of store change edits the rows from the event alone")
    func rowsFollowChanges() {
        var core = AttractionListCore(elements: [louvre], undoLabel: nil, redoLabel: nil)
        let renamed = Attraction(id: louvre.id, name: "Le Louvre", notes: "")

        #expect(core.handle(update(.inserted(orsay, at: 1), undo: "Add “Orsay”")) == [])
        #expect(core.viewState.rows.map(\.name) == ["Louvre", "Orsay"])
        #expect(core.viewState.undo == .init(title: "Undo Add “Orsay”", isEnabled: true))
        core.handle(update(.moved(orsay, from: 1, to: 0)))
        #expect(core.viewState.rows.map(\.name) == ["Orsay", "Louvre"])
        core.handle(update(.replaced(old: louvre, new: renamed, at: 1)))
        #expect(core.viewState.rows.map(\.name) == ["Orsay", "Le Louvre"])
        core.handle(update(.removed(orsay, at: 0)))
        #expect(core.viewState.rows.map(\.name) == ["Le Louvre"])
        #expect(core.viewState.undo == .init(title: "Undo", isEnabled: false))
    }

    @Test("a change whose position does not fit asks for a reload, which then replaces the rows")
    func misfitReloads() {
        var core = AttractionListCore(elements: [louvre], undoLabel: nil, redoLabel: nil)

        #expect(core.handle(update(.removed(orsay, at: 5))) == [.reloadFromStore])
        #expect(core.viewState.rows.map(\.name) == ["Louvre"])
        #expect(core.handle(.reloaded([orsay], undoLabel: "Delete", redoLabel: nil)) == [])
        #expect(core.viewState.rows.map(\.name) == ["Orsay"])
        #expect(core.viewState.undo.title == "Undo Delete")
    }

    @Test("a refused intent shows its error, the next store change clears it, dismissing too")
    func errors() {
        var core = AttractionListCore(elements: [], undoLabel: "Add", redoLabel: nil)

        core.handle(.intentFailed("no row 3", undoLabel: nil, redoLabel: nil))
        #expect(core.viewState.lastError == "no row 3")
        #expect(!core.viewState.undo.isEnabled, "the labels after the refusal are shown")
        core.handle(update(.inserted(louvre, at: 0)))
        #expect(core.viewState.lastError == nil)
        core.handle(.inputRefused("an attraction needs a name"))
        #expect(core.viewState.lastError == "an attraction needs a name")
        core.handle(.errorDismissed)
        #expect(core.viewState.lastError == nil)
    }

    @Test("saving problems and notices are shown, and a save clears the problem")
    func savingAndNotices() {
        var core = AttractionListCore(elements: [], undoLabel: nil, redoLabel: nil)

        let full = PersistenceError.unwritable(path: "/a.json", reason: "disk full")
        core.handle(.savingChanged(.failed(full, attempts: 1)))
        #expect(core.viewState.saveProblem == "not saved: cannot save /a.json: disk full")
        core.handle(.savingChanged(.failed(full, attempts: 3)))
        #expect(
            core.viewState.saveProblem
                == "not saved: cannot save /a.json: disk full (failed 3 times in a row)")
        core.handle(.savingChanged(.unconfirmed("fsync failed")))
        #expect(
            core.viewState.saveProblem
                == "the last save was written but not confirmed on disk: fsync failed")
        core.handle(.savingChanged(.pending))
        #expect(core.viewState.saveProblem == nil)
        core.handle(
            .noticeArrived(ListStoreNotice(sequenceNumber: 1, message: "kept theirs")))
        #expect(core.viewState.notice == "kept theirs")
    }

    @Test("an edit not yet saved is marked pending until saving says saved, or why not")
    func pendingMark() {
        var core = AttractionListCore(elements: [], undoLabel: nil, redoLabel: nil)

        #expect(!core.viewState.isSavePending)
        core.handle(.savingChanged(.pending))
        #expect(core.viewState.isSavePending)
        core.handle(
            .savingChanged(.failed(.unwritable(path: "/a.json", reason: "disk full"), attempts: 1)))
        #expect(!core.viewState.isSavePending, "the problem says it instead")
        core.handle(.savingChanged(.saved))
        #expect(!core.viewState.isSavePending)
    }

    @Test("a notice is said once: the next change of the list takes it off the screen")
    func noticeShownOnce() {
        var core = AttractionListCore(elements: [], undoLabel: nil, redoLabel: nil)

        core.handle(.noticeArrived(ListStoreNotice(sequenceNumber: 1, message: "kept theirs")))
        core.handle(.savingChanged(.pending))
        #expect(core.viewState.notice == "kept theirs")
        core.handle(update(.inserted(louvre, at: 0)))
        #expect(core.viewState.notice == nil)
    }
}

/// Another subscriber edits the store while the store's update is being delivered: the list's
/// rows must still end as the store's list, in order.
@MainActor
@Suite("The list presenter when another subscriber edits the store mid-delivery")
struct ListUnderReentrantEditsTests {
    @Test("a subscriber that deletes every attraction named “spam” as it is added")
    func deleteDuringDelivery() throws {
        let store = AttractionStore()
        let list = AttractionListPresenter(store: store)
        let janitor = store.changes.subscribeToAll { update in
            guard case .inserted(let attraction, let position) = update.change,
                attraction.name == "spam"
            else { return }
            _ = try? store.delete(at: position)
        }

        try store.add(Attraction(name: "Louvre"))
        try store.add(Attraction(name: "spam"))
        try store.add(Attraction(name: "Orsay"))
        try store.move(from: 1, to: 0)

        #expect(list.viewState.rows.map(\.name) == store.elements.map(\.name))
        #expect(store.elements.map(\.name) == ["Orsay", "Louvre"])
        _ = janitor
    }
}
