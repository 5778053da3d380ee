import AttractionsStorage
import Foundation
import MVCDocumentStore
import MVCElements
import MVCListStore
import MVCModel
import MVCPresenter
import MVCStore
import Testing

/// Checks that every described field survives the paths that edit an attraction.
///
/// Each field, set to a value unlike its default, must survive every path that is not about it:
/// an edit of another field, undo and redo, a merge from either side, the editor's create and
/// edit paths, and a save and load. A field added to
/// `Attraction.fields` needs two sample values here; the first test says which are missing.
@Suite("Every described field survives edits of the others")
@MainActor
struct FieldSurvivalTests {
    /// Two values per field, each unlike the default: what a field is set to, and what it is
    /// changed to.
    private static let samples: [String: [@Sendable (inout Attraction) -> Void]] = [
        "name": [{ $0.name = "Sainte-Chapelle" }, { $0.name = "Conciergerie" }],
        "notes": [{ $0.notes = "Stained glass" }, { $0.notes = "Marie Antoinette" }],
    ]

    /// An attraction with every described field set to its first sample value.
    private func full(id: Attraction.ID = Attraction.ID()) -> Attraction {
        var attraction = Attraction(blankWithID: id)
        for field in Attraction.fields { Self.samples[field.name]?.first?(&attraction) }
        return attraction
    }

    /// `attraction` with `field` changed to its second sample value.
    private func changing(_ field: ElementField<Attraction>, of attraction: Attraction)
        -> Attraction
    {
        var changed = attraction
        Self.samples[field.name]?.last?(&changed)
        return changed
    }

    /// Every pair of two different described fields.
    private var pairs: [(kept: ElementField<Attraction>, edited: ElementField<Attraction>)] {
        Attraction.fields.flatMap { kept in
            Attraction.fields.filter { $0.name != kept.name }.map { (kept, $0) }
        }
    }

    @Test("every described field has two sample values here, unlike its default and each other")
    func everyFieldHasSamples() {
        let blank = Attraction(blankWithID: Attraction.ID())
        for field in Attraction.fields {
            guard let setters = Self.samples[field.name], setters.count == 2 else {
                Issue.record(
                    "no two sample values for the field “\(field.name)”: add them to FieldSurvivalTests.samples"
                )
                continue
            }
            var first = blank
            setters[0](&first)
            let second = changing(field, of: first)
            #expect(!field.isEqual(first, blank), "“\(field.name)”'s first sample is its default")
            #expect(!field.isEqual(second, first), "“\(field.name)”'s two samples are equal")
        }
    }

    @Test("an edit of one field keeps another field changed meanwhile, through undo and redo")
    func editUndoRedo() throws {
        for (kept, edited) in pairs {
            let original = full()
            // The store's copy has `kept` changed since the editor opened (another process's
            // edit, merged in); the editor changed `edited` only.
            let inStore = changing(kept, of: original)
            let store = AttractionStore([inStore])

            try store.mergeEdit(of: original, result: changing(edited, of: original))
            let both = changing(edited, of: inStore)
            #expect(
                store.element(withID: original.id) == both,
                "\(kept.name) kept, \(edited.name) edited")
            try store.undo()
            #expect(store.element(withID: original.id) == inStore, "undo of \(edited.name)")
            try store.redo()
            #expect(store.element(withID: original.id) == both, "redo of \(edited.name)")
        }
    }

    @Test("a merge keeps each side's edit of a different field, from either side")
    func mergeFromEitherSide() {
        for (kept, edited) in pairs {
            let base = full()
            let keptChanged = changing(kept, of: base)
            let editedChanged = changing(edited, of: base)
            let both = changing(edited, of: keptChanged)

            let oursFirst = ListMerge<Attraction>.merge(
                base: [base], ours: [keptChanged], theirs: [editedChanged])
            let theirsFirst = ListMerge<Attraction>.merge(
                base: [base], ours: [editedChanged], theirs: [keptChanged])

            #expect(oursFirst.document == [both], "\(kept.name) changed here")
            #expect(theirsFirst.document == [both], "\(kept.name) changed in another process")
            #expect(oursFirst.notices.isEmpty && theirsFirst.notices.isEmpty)
        }
    }

    @Test("the editor's create path sets every field typed, and its edit path keeps the others")
    func editorPaths() {
        let id = Attraction.ID()
        var creating = AttractionEditorCore(editing: Attraction(blankWithID: id))
        for field in Attraction.fields {
            creating.handle(.fieldChanged(field.name, to: field.text(in: full(id: id))))
        }
        #expect(savedAttraction(from: &creating) == full(id: id), "created with every field")

        for field in Attraction.fields {
            let opened = full()
            var editing = AttractionEditorCore(editing: opened)
            editing.handle(
                .fieldChanged(field.name, to: field.text(in: changing(field, of: opened))))
            #expect(savedAttraction(from: &editing) == changing(field, of: opened), "\(field.name)")
        }
    }

    /// What the editor hands its delegate when Save is pressed, if it asks it.
    private func savedAttraction(from core: inout AttractionEditorCore) -> Attraction? {
        guard case .askDelegateToSave(let saved) = core.handle(.saveTapped).first else {
            return nil
        }
        return saved
    }

    @Test(
        "each field described as listed shows on the list's row, after the name, and no other field does"
    )
    func listedFieldsShow() {
        let attraction = full()
        let list = AttractionListPresenter(store: AttractionStore([attraction]))
        let row = list.viewState.rows.first

        #expect(row?.name == attraction.name)
        for field in Attraction.fields where field.name != "name" {
            let shown = row?.parts.contains { $0.contains(field.text(in: attraction)) } ?? false
            #expect(
                shown == field.isListed,
                "“\(field.name)” is \(field.isListed ? "" : "not ")described as listed, and the row shows \(row?.parts ?? [])"
            )
        }
    }

    @Test("a save and a load keep every field")
    func saveAndLoad() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "field-survival-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = DocumentFile(url: folder.appendingPathComponent("a.json"), format: .attractions)
        let attractions = [full(), full()]

        _ = try await file.overwrite(with: attractions)

        #expect(try await file.load() == attractions)
    }
}
