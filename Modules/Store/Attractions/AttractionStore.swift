public import MVCModel
public import MVCObservation
public import MVCPersistence
public import MVCTracing

/// Owns the list of attractions: adds, replaces, moves, deletes, undoes and redoes, publishes
/// each change, and hands every new version of the list to its saver.
///
/// Every edit is checked before anything changes, so a refused edit (a bad position, an unknown
/// attraction, a value that breaks the model's rules) throws and leaves the list, the history and
/// the file as they were. Every edit is undoable, in order, with a label a menu can show; undo
/// and redo find their attraction by id, so they stay right after a merge.
///
/// Changes are published on ``changes`` as ``AttractionStoreUpdate`` values that carry the
/// attractions they are about, keyed by attraction: subscribe to all of them to keep a list up to
/// date row by row, or to one attraction's key to follow just that one. Changes another process
/// saved reach subscribers the same way (see ``open(at:delay:clock:watchInterval:tracer:)``).
@MainActor
public final class AttractionStore {
    /// The update of each edit, undo, redo and merge, published after the list and history are
    /// updated.
    ///
    /// Only the store publishes: subscribers get this feed, which cannot.
    public var changes: UpdateSubscriptions<AttractionStoreUpdate> { channel.subscriptions }
    private let channel = UpdateChannel<AttractionStoreUpdate>()
    /// Where saving stands; a repeated failure is a new value.
    ///
    /// Only the store writes it: others get this read-only view.
    public var saving: ReadOnlyProperty<AttractionSavingState> { savingProperty.readOnly }
    private let savingProperty = ObservableProperty<AttractionSavingState>(.saved)
    /// The latest conflict resolved while taking in another process's save, if any.
    public var notice: ReadOnlyProperty<AttractionStoreNotice?> { noticeProperty.readOnly }
    private let noticeProperty = ObservableProperty<AttractionStoreNotice?>(nil)
    private var list: AttractionList
    private var history = UndoHistory<AttractionEdit>()
    private let saver: CoalescingSaver<[Attraction]>?
    private let tracer: HopTracer
    private var savingToken: ObservationToken?
    private var noticeCount = 0

    /// Creates a store holding `attractions`.
    ///
    /// - Parameters:
    ///   - attractions: The list to start with, in order (of several with one id, the first).
    ///   - saver: Receives each new version of the list to save it; `nil` keeps it in memory.
    ///   - tracer: Told each hop from the store to the observation layer and to the saver.
    public init(
        attractions: [Attraction] = [],
        saver: CoalescingSaver<[Attraction]>? = nil,
        tracer: HopTracer = .disabled
    ) {
        self.list = AttractionList(attractions)
        self.saver = saver
        self.tracer = tracer
        savingToken = saver?.status.observe(options: .new) { [weak self] change in
            guard let status = change.newValue else { return }
            self?.savingProperty.value = AttractionSavingState(status)
        }
    }

    // MARK: Reading

    /// The attractions, in the user's order.
    public var attractions: [Attraction] { list.attractions }

    /// The number of attractions.
    public var count: Int { list.count }

    /// The attraction at `position` (counting from 0).
    ///
    /// - Throws: ``AttractionStoreError/positionOutOfRange(_:count:)``.
    public func attraction(at position: Int) throws(AttractionStoreError) -> Attraction {
        try checkPosition(position)
        return list.attractions[position]
    }

    /// The attraction with `id`, if it is in the list.
    ///
    /// - Complexity: O(1).
    public func attraction(withID id: Attraction.ID) -> Attraction? {
        list.index(of: id).map { list.attractions[$0] }
    }

    /// What ``undo()`` would undo, as a menu would label it ("Delete “Louvre”"), if anything.
    public var undoLabel: String? { history.undoLabel }
    /// What ``redo()`` would redo, as a menu would label it, if anything.
    public var redoLabel: String? { history.redoLabel }

    // MARK: Editing

    /// Applies an editor's changes to the attraction it was opened on, wherever it now is.
    ///
    /// Only the fields the editor changed (from `original` to `edited`) are written, so a field
    /// that another process changed while the editor was open, and that was merged in since, is
    /// kept.
    ///
    /// - Throws: as ``replace(_:with:)``.
    public func apply(editOf original: Attraction, result edited: Attraction)
        throws(AttractionStoreError)
    {
        guard edited.id == original.id else {
            throw .mismatchedID(expected: original.id, found: edited.id)
        }
        if let problem = edited.problems.first { throw .brokenRule(problem) }
        guard let current = attraction(withID: original.id) else {
            throw .unknownAttraction(original.id)
        }
        var merged = current
        if original.name != edited.name { merged.name = edited.name }
        if original.notes != edited.notes { merged.notes = edited.notes }
        try replace(original.id, with: merged)
    }

    /// Adds `attraction` at `position`, or at the end.
    ///
    /// - Throws: ``AttractionStoreError/brokenRule(_:)`` if it breaks the model's rules;
    ///   ``AttractionStoreError/duplicateAttraction(_:)`` if its id is already listed;
    ///   ``AttractionStoreError/positionOutOfRange(_:count:)`` for a position past the end.
    public func add(_ attraction: Attraction, at position: Int? = nil) throws(AttractionStoreError)
    {
        if let problem = attraction.problems.first { throw .brokenRule(problem) }
        guard !list.contains(attraction.id) else { throw .duplicateAttraction(attraction.id) }
        let position = position ?? count
        guard (0...count).contains(position) else {
            throw .positionOutOfRange(position, count: count)
        }
        perform(.insert(attraction, at: position), label: "Add “\(attraction.name)”")
    }

    /// Replaces the attraction with `id` by `newVersion`, wherever it now is in the list.
    ///
    /// Replacing by id, not by position, means an editor opened before the list was reordered
    /// still replaces the right attraction. Replacing with an equal value changes nothing.
    ///
    /// - Throws: ``AttractionStoreError/unknownAttraction(_:)`` if it was deleted meanwhile;
    ///   ``AttractionStoreError/mismatchedID(expected:found:)`` if `newVersion` has another id;
    ///   ``AttractionStoreError/brokenRule(_:)`` if it breaks the model's rules.
    /// - Complexity: O(1).
    public func replace(_ id: Attraction.ID, with newVersion: Attraction)
        throws(AttractionStoreError)
    {
        guard newVersion.id == id else { throw .mismatchedID(expected: id, found: newVersion.id) }
        if let problem = newVersion.problems.first { throw .brokenRule(problem) }
        guard let old = attraction(withID: id) else { throw .unknownAttraction(id) }
        guard old != newVersion else { return }
        perform(.replace(old: old, new: newVersion), label: "Edit “\(newVersion.name)”")
    }

    /// Moves the attraction at `source` so that it ends up at `destination`.
    ///
    /// - Throws: ``AttractionStoreError/positionOutOfRange(_:count:)`` for either position.
    public func move(from source: Int, to destination: Int) throws(AttractionStoreError) {
        try checkPosition(source)
        try checkPosition(destination)
        guard source != destination else { return }
        let moving = list.attractions[source]
        perform(.move(moving.id, from: source, to: destination), label: "Move “\(moving.name)”")
    }

    /// Deletes the attraction at `position`.
    ///
    /// - Returns: The deleted attraction.
    /// - Throws: ``AttractionStoreError/positionOutOfRange(_:count:)``.
    @discardableResult
    public func delete(at position: Int) throws(AttractionStoreError) -> Attraction {
        try checkPosition(position)
        let deleted = list.attractions[position]
        perform(.remove(deleted, at: position), label: "Delete “\(deleted.name)”")
        return deleted
    }

    /// Undoes the most recent edit not yet undone.
    ///
    /// - Throws: ``AttractionStoreError/nothingToUndo``; or
    ///   ``AttractionStoreError/changedElsewhere(_:)`` if another process's save removed what the
    ///   edit was about (or brought back what it removed): that edit is dropped from the history.
    public func undo() throws(AttractionStoreError) {
        guard let entry = history.takeUndo() else { throw .nothingToUndo }
        guard perform(entry.edit.inverse, label: nil) else {
            history.dropRedo()
            throw .changedElsewhere(entry.label)
        }
    }

    /// Redoes the most recently undone edit.
    ///
    /// - Throws: ``AttractionStoreError/nothingToRedo``; or
    ///   ``AttractionStoreError/changedElsewhere(_:)``, as for ``undo()``.
    public func redo() throws(AttractionStoreError) {
        guard let entry = history.takeRedo() else { throw .nothingToRedo }
        guard perform(entry.edit, label: nil) else {
            history.dropUndo()
            throw .changedElsewhere(entry.label)
        }
    }

    // MARK: Effects

    /// Applies an edit, records it (unless it is an undo or redo), saves and publishes.
    ///
    /// - Returns: Whether the edit fit the list (an undo may not, after a merge).
    @discardableResult
    private func perform(_ edit: AttractionEdit, label: String?) -> Bool {
        guard let change = list.apply(edit) else { return false }
        if let label { history.record(edit, label: label) }
        if let saver {
            tracer.record(from: .store, to: .persistence, "documentChanged(\(count) attractions)")
            saver.documentChanged(list.attractions)
        }
        publish(change)
        return true
    }

    private func publish(_ change: AttractionListChange) {
        tracer.record(from: .store, to: .observation, change.summary)
        channel.publish(
            AttractionStoreUpdate(
                change: change, undoLabel: history.undoLabel, redoLabel: history.redoLabel))
    }

    private func checkPosition(_ position: Int) throws(AttractionStoreError) {
        guard list.attractions.indices.contains(position) else {
            throw .positionOutOfRange(position, count: count)
        }
    }
}

extension AttractionStore {
    /// Takes in the list another process saved: merges it with this store's list against the
    /// version both started from, and publishes the difference as ordinary updates.
    ///
    /// - Parameters:
    ///   - base: The version this store and the file last agreed on.
    ///   - fileVersion: The list in the file now.
    ///   - notices: Conflicts already resolved on the way (by the save that merged).
    /// - Returns: The store's list afterwards, with its own unsaved edits.
    func takeIn(base: [Attraction]?, fileVersion: [Attraction], notices: [String])
        -> [Attraction]
    {
        let merge = AttractionMerge.merge(base: base, ours: list.attractions, theirs: fileVersion)
        tracer.record(
            from: .persistence, to: .store,
            "merge another process's save (\(fileVersion.count) attractions)")
        for change in AttractionListDifference.changes(
            from: list.attractions, to: merge.document)
        {
            guard let applied = list.apply(change) else { continue }
            publish(applied)
        }
        for message in notices + merge.notices { post(message) }
        return list.attractions
    }

    /// Publishes `message` as the store's newest notice.
    func post(_ message: String) {
        noticeCount += 1
        noticeProperty.value = AttractionStoreNotice(sequenceNumber: noticeCount, message: message)
    }
}

extension AttractionSavingState {
    init(_ status: SaveStatus) {
        switch status {
        case .saved: self = .saved
        case .pending: self = .pending
        case .unconfirmed(let reason):
            self = .unconfirmed(
                message: "the last save was written but not confirmed on disk: \(reason)")
        case .failed(let error, let attempts):
            self = .failed(message: error.description, attempts: attempts)
        }
    }
}
