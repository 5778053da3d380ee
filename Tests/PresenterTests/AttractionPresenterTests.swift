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

/// Shorthands for the view-states the attraction screens go through.
@MainActor
enum Screens {
    static func row(_ attraction: Attraction) -> AttractionListViewState.Row {
        .init(id: attraction.id.description, name: attraction.name, parts: attraction.listedParts)
    }

    static func list(
        _ attractions: [Attraction],
        undo: String? = nil,
        redo: String? = nil,
        error: String? = nil
    ) -> AttractionListViewState {
        AttractionListViewState(
            rows: attractions.map(row),
            undo: .init(title: undo.map { "Undo \($0)" } ?? "Undo", isEnabled: undo != nil),
            redo: .init(title: redo.map { "Redo \($0)" } ?? "Redo", isEnabled: redo != nil),
            lastError: error
        )
    }

    static func editor(
        _ name: String,
        _ notes: String = "",
        nameMessage: String? = nil,
        saveError: String? = nil,
        phase: AttractionDetailViewState.Phase = .editing
    ) -> AttractionDetailViewState {
        var typed = Attraction(blankWithID: Attraction.ID())
        typed.name = name
        typed.notes = notes
        return AttractionDetailViewState(
            fields: Attraction.fields.map { field in
                .init(
                    name: field.name, text: field.text(in: typed),
                    message: field.name == "name" ? nameMessage : nil)
            },
            isSaveEnabled: nameMessage == nil,
            saveError: saveError,
            phase: phase
        )
    }
}

extension Ideas {
    @MainActor
    @Suite("The attraction list and editor presenters")
    struct AttractionPresenterTests {
        private let louvre = Attraction(name: "Louvre")
        private let orsay = Attraction(name: "Orsay", notes: "Impressionists")

        @Test("creating: a blank editor, typing, saving, and the list gains one row")
        func createFlow() async throws {
            let store = AttractionStore([louvre])
            let list = PresenterTestStore(AttractionListPresenter(store: store))

            let editor = PresenterTestStore(list.send { $0.newTapped() })
            #expect(editor.state == Screens.editor("", nameMessage: "an attraction needs a name"))
            editor.send { $0.fieldChanged("name", to: "Orsay") }
            editor.expect {
                $0[field: "name"]?.text = "Orsay"
                $0[field: "name"]?.message = nil
                $0.isSaveEnabled = true
            }
            editor.send { $0.fieldChanged("notes", to: "Impressionists") }
            editor.expect { $0[field: "notes"]?.text = "Impressionists" }
            let saved = editor.send { $0.saveTapped() }
            editor.expect { $0.phase = .saved }

            #expect(saved)
            let created = try #require(store.elements.last)
            #expect(created.notes == "Impressionists")
            await list.receive {
                $0.rows.append(Screens.row(created))
                $0.undo = .init(title: "Undo Add “Orsay”", isEnabled: true)
            }
            await editor.finish()
            await list.finish()
        }

        @Test("editing: the editor opens on the row's attraction and saving updates that row only")
        func editFlow() async throws {
            let store = AttractionStore([louvre, orsay])
            let list = PresenterTestStore(AttractionListPresenter(store: store))

            let editor = PresenterTestStore(try #require(list.send { $0.editTapped(at: 1) }))
            #expect(editor.state == Screens.editor("Orsay", "Impressionists"))
            editor.send { $0.fieldChanged("notes", to: "Van Gogh") }
            editor.expect { $0[field: "notes"]?.text = "Van Gogh" }
            editor.send { $0.saveTapped() }
            editor.expect { $0.phase = .saved }

            let edited = Attraction(id: orsay.id, name: "Orsay", notes: "Van Gogh")
            await list.receive {
                $0.rows[1] = Screens.row(edited)
                $0.undo = .init(title: "Undo Edit “Orsay”", isEnabled: true)
            }
            await editor.finish()
            await list.finish()
        }

        @Test("cancelling: the edit ends, the list never changes")
        func cancelFlow() async throws {
            let store = AttractionStore([louvre])
            let list = PresenterTestStore(AttractionListPresenter(store: store))

            let editor = PresenterTestStore(try #require(list.send { $0.editTapped(at: 0) }))
            editor.send { $0.fieldChanged("name", to: "Le Louvre") }
            editor.expect { $0[field: "name"]?.text = "Le Louvre" }
            editor.send { $0.cancelTapped() }
            editor.expect { $0.phase = .cancelled }
            editor.send { $0.fieldChanged("name", to: "ignored after the edit ended") }

            #expect(!editor.presenter.isEditing)
            await editor.finish()
            await list.finish()
        }

        @Test(
            "a validation failure keeps the editor open with the reason, and saving works once fixed"
        )
        func validationFailureFlow() {
            let store = AttractionStore()
            let list = AttractionListPresenter(store: store)
            let editor = list.newTapped()
            let editorTimeline = ViewStateRecorder(editor)

            editor.fieldChanged("name", to: "   ")
            #expect(!editor.saveTapped())
            editor.fieldChanged("name", to: "Orsay")
            #expect(editor.saveTapped())

            #expect(
                editorTimeline.timeline == [
                    Screens.editor("", nameMessage: "an attraction needs a name"),
                    Screens.editor("   ", nameMessage: "an attraction needs a name"),
                    Screens.editor(
                        "   ", nameMessage: "an attraction needs a name",
                        saveError: "an attraction needs a name"),
                    Screens.editor("Orsay"),
                    Screens.editor("Orsay", phase: .saved),
                ]
            )
            #expect(store.elements.map(\.name) == ["Orsay"])
        }

        @Test("a store error on save keeps the editor open with the store's reason")
        func storeErrorOnSave() throws {
            let store = AttractionStore([louvre])
            let list = AttractionListPresenter(store: store)
            let editor = try #require(list.editTapped(at: 0))
            try store.delete(at: 0)

            #expect(!editor.saveTapped())

            #expect(editor.viewState.saveError == "that attraction is no longer in the list")
            #expect(editor.isEditing)
        }

        @Test(
            "reordering, deleting and undoing each change the list in one step, with labels to match"
        )
        func reorderDeleteUndoFlow() {
            let eiffel = Attraction(name: "Eiffel Tower")
            let store = AttractionStore([louvre, orsay, eiffel])
            let list = AttractionListPresenter(store: store)
            let timeline = ViewStateRecorder(list)

            list.moveTapped(from: 2, to: 0)
            list.deleteTapped(at: 1)
            list.undoTapped()
            list.undoTapped()
            list.redoTapped()

            #expect(
                timeline.timeline == [
                    Screens.list([louvre, orsay, eiffel]),
                    Screens.list([eiffel, louvre, orsay], undo: "Move “Eiffel Tower”"),
                    Screens.list([eiffel, orsay], undo: "Delete “Louvre”"),
                    Screens.list(
                        [eiffel, louvre, orsay], undo: "Move “Eiffel Tower”",
                        redo: "Delete “Louvre”"),
                    Screens.list([louvre, orsay, eiffel], redo: "Move “Eiffel Tower”"),
                    Screens.list(
                        [eiffel, louvre, orsay], undo: "Move “Eiffel Tower”",
                        redo: "Delete “Louvre”"),
                ]
            )
        }

        @Test("a refused intent shows its reason, and the next success clears it")
        func errorsShowAndClear() {
            let store = AttractionStore([louvre])
            let list = AttractionListPresenter(store: store)
            let timeline = ViewStateRecorder(list)

            #expect(!list.deleteTapped(at: 4))
            #expect(!list.undoTapped())
            #expect(!list.addTapped(name: " "))
            #expect(list.editTapped(at: 1) == nil)
            #expect(list.addTapped(name: "Orsay"))

            let added = store.elements[1]
            #expect(
                timeline.timeline == [
                    Screens.list([louvre]),
                    Screens.list(
                        [louvre], error: "there is no attraction at position 5: the list has 1"),
                    Screens.list([louvre], error: "there is nothing to undo"),
                    Screens.list([louvre], error: "an attraction needs a name"),
                    Screens.list(
                        [louvre], error: "there is no attraction at position 2: the list has 1"),
                    Screens.list([louvre, added], undo: "Add “Orsay”"),
                ]
            )
        }

        @Test("opening an editor is a success too: it clears the last error")
        func openingEditorClearsError() {
            let list = AttractionListPresenter(store: AttractionStore())
            let timeline = ViewStateRecorder(list)

            list.undoTapped()
            _ = list.newTapped()

            #expect(
                timeline.timeline == [
                    Screens.list([]), Screens.list([], error: "there is nothing to undo"),
                    Screens.list([]),
                ])
        }

        @Test("an empty list says so")
        func emptyState() {
            let list = AttractionListPresenter(store: AttractionStore())

            #expect(list.viewState.emptyMessage == "No attractions yet.")
            #expect(list.viewState.rows.isEmpty)
        }

        @Test(
            "a save that keeps failing stays on the list, counted, through later edits, until a write succeeds"
        )
        func repeatedSaveFailuresShow() async throws {
            let folder = FileManager.default.temporaryDirectory.appending(
                path: "presenter-save-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            // A file where the store's folder should be: every write fails until it is removed.
            try Data().write(to: folder)
            let (store, saver) = try await AttractionStore.open(
                at: folder.appending(path: "a.json"))
            let list = AttractionListPresenter(store: store)

            list.addTapped(name: "Louvre")
            await #expect(throws: PersistenceError.self) { try await saver.flush() }
            let firstProblem = try #require(list.viewState.saveProblem)
            list.addTapped(name: "Orsay")
            await #expect(throws: PersistenceError.self) { try await saver.flush() }

            #expect(list.viewState.lastError == nil)
            #expect(list.viewState.saveProblem == "\(firstProblem) (failed 2 times in a row)")

            try FileManager.default.removeItem(at: folder)
            try await saver.flush()
            #expect(list.viewState.saveProblem == nil)
        }
    }
}

/// A delegate that records what the editor told it.
@MainActor
private final class RecordingDelegate: ElementEditorDelegate {
    var saved: [Attraction] = []
    var cancellations = 0
    func saveElement(_ attraction: Attraction) throws(AttractionEditorError) {
        saved.append(attraction)
    }
    func cancelEditing() { cancellations += 1 }
}

extension Ideas {
    @MainActor
    @Suite("Who keeps the editor's delegate alive")
    struct EditorOwnershipTests {
        @Test("the editor keeps a delegate nobody else holds alive while the edit lasts")
        func noPrematureRelease() {
            weak var weakDelegate: RecordingDelegate?
            let editor: AttractionDetailPresenter
            do {
                let delegate = RecordingDelegate()
                weakDelegate = delegate
                editor = AttractionDetailPresenter(
                    editing: Attraction(name: "Louvre"), delegate: delegate)
            }

            #expect(weakDelegate != nil)
            editor.fieldChanged("name", to: "Le Louvre")
            #expect(editor.saveTapped())
            #expect(weakDelegate == nil, "the edit is over, so the delegate should be released")
        }

        @Test("cancelling calls the delegate's cancel once and then lets it go")
        func cancelDeliveredThenReleased() {
            let delegate = RecordingDelegate()
            weak let weakDelegate = delegate
            let editor = AttractionDetailPresenter(
                editing: Attraction(name: "Louvre"), delegate: delegate)

            editor.cancelTapped()
            editor.cancelTapped()

            #expect(delegate.cancellations == 1)
            #expect(delegate.saved.isEmpty)
            _ = consume delegate
            #expect(weakDelegate == nil)
        }

        @Test(
            "an editor, its delegate and the store behind it are all deallocated when released mid-edit"
        )
        func nothingLeaksMidEdit() {
            weak var weakStore: AttractionStore?
            weak var weakEditor: AttractionDetailPresenter?
            weak var weakList: AttractionListPresenter?
            do {
                let store = AttractionStore([Attraction(name: "Louvre")])
                let list = AttractionListPresenter(store: store)
                let editor = list.editTapped(at: 0)
                editor?.fieldChanged("name", to: "Le Louvre")
                weakStore = store
                weakEditor = editor
                weakList = list
            }

            #expect(weakEditor == nil)
            #expect(weakList == nil)
            #expect(weakStore == nil)
        }

        @Test("the saved attraction keeps the id the editor was opened with")
        func savesWithOriginalID() {
            let delegate = RecordingDelegate()
            let original = Attraction(name: "Louvre")
            let editor = AttractionDetailPresenter(editing: original, delegate: delegate)

            editor.fieldChanged("name", to: "Le Louvre")
            editor.saveTapped()

            #expect(delegate.saved == [Attraction(id: original.id, name: "Le Louvre")])
        }
    }
}
