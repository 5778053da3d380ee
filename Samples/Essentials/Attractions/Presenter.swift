// The delegates and the editor (the presenter): the editor calls whichever delegate it is given.

/// What an editor tells whoever opened it: both required, neither with a default.
@MainActor protocol AttractionEditorDelegate: AnyObject {
    func save(_ attraction: Attraction) throws
    func cancel()
}

@MainActor final class CreateAttractionDelegate: AttractionEditorDelegate {
    private let store: AttractionStore
    init(store: AttractionStore) { self.store = store }
    func save(_ attraction: Attraction) throws { try store.add(attraction) }
    func cancel() {}  // nothing was added, so nothing to take back
}

@MainActor final class EditAttractionDelegate: AttractionEditorDelegate {
    private let store: AttractionStore
    init(store: AttractionStore) { self.store = store }
    func save(_ attraction: Attraction) throws { try store.replace(attraction) }
    func cancel() {}  // the original was never touched
}

/// Edits a draft and hands it to its delegate; it knows neither the store nor which delegate.
@MainActor final class AttractionEditor {
    private(set) var draft: Attraction
    private let delegate: any AttractionEditorDelegate  // strong: only the editor keeps it
    init(draft: Attraction, delegate: any AttractionEditorDelegate) {
        self.draft = draft
        self.delegate = delegate
    }
    var problem: String? { draft.name.isEmpty ? "an attraction needs a name" : nil }
    func nameChanged(to text: String) { draft.name = text }
    func notesChanged(to text: String) { draft.notes = text }
    func cancelTapped() { delegate.cancel() }
    func saveTapped() throws {
        if let problem { throw Refusal(description: problem) }
        try delegate.save(draft)
    }
}
