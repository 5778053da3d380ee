public import MVCModel
public import MVCObservation

/// Owns the list of attractions: adds, replaces, moves, deletes, undoes and redoes, publishes
/// each change, and hands every new version of the list to its saver.
///
/// Every edit is checked before anything changes, so a refused edit (a bad position, an unknown
/// attraction) throws and leaves the list, the history and the file as they were. Every edit is
/// undoable, in order, with a label a menu can show.
///
/// Changes are published on ``changes`` as fine-grained ``AttractionListChange`` values, keyed by
/// attraction: subscribe to all of them to keep a list up to date row by row, or to one
/// attraction's key to follow just that one.
@MainActor
public final class AttractionStore {
    /// The change of each edit, undo and redo, published after the list and history are updated.
    public let changes: UpdateChannel<AttractionListChange>
    private var list: AttractionList
    private var history = UndoHistory<AttractionEdit>()
    private let saver: CoalescingSaver<[Attraction]>?
    private let tracer: HopTracer

    /// Creates a store holding `attractions`.
    ///
    /// - Parameters:
    ///   - attractions: The list to start with, in order.
    ///   - saver: Receives each new version of the list to save it; `nil` keeps it in memory.
    ///   - tracer: Told each hop from the store to the observation layer.
    public init(
        attractions: [Attraction] = [],
        saver: CoalescingSaver<[Attraction]>? = nil,
        tracer: HopTracer = .disabled
    ) {
        self.list = AttractionList(attractions)
        self.saver = saver
        self.tracer = tracer
        self.changes = UpdateChannel()
    }

    // MARK: Reading

    /// The attractions, in the user's order.
    public var attractions: [Attraction] { list.attractions }

    /// The number of attractions.
    public var count: Int { list.attractions.count }

    /// The attraction at `position` (counting from 0).
    ///
    /// - Throws: ``AttractionStoreError/positionOutOfRange(_:count:)``.
    public func attraction(at position: Int) throws(AttractionStoreError) -> Attraction {
        try checkPosition(position)
        return list.attractions[position]
    }

    /// The attraction with `id`, if it is in the list.
    ///
    /// - Complexity: O(*n*).
    public func attraction(withID id: Attraction.ID) -> Attraction? {
        list.index(of: id).map { list.attractions[$0] }
    }

    /// What ``undo()`` would undo, as a menu would label it ("Delete “Louvre”"), if anything.
    public var undoLabel: String? { history.undoLabel }
    /// What ``redo()`` would redo, as a menu would label it, if anything.
    public var redoLabel: String? { history.redoLabel }

    // MARK: Editing

    /// Adds `attraction` at `position`, or at the end.
    ///
    /// - Throws: ``AttractionStoreError/duplicateAttraction(_:)`` if its id is already listed;
    ///   ``AttractionStoreError/positionOutOfRange(_:count:)`` for a position past the end.
    public func add(_ attraction: Attraction, at position: Int? = nil) throws(AttractionStoreError)
    {
        guard list.index(of: attraction.id) == nil else {
            throw .duplicateAttraction(attraction.id)
        }
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
    ///   ``AttractionStoreError/mismatchedID(expected:found:)`` if `newVersion` has another id.
    public func replace(_ id: Attraction.ID, with newVersion: Attraction)
        throws(AttractionStoreError)
    {
        guard newVersion.id == id else { throw .mismatchedID(expected: id, found: newVersion.id) }
        guard let position = list.index(of: id) else { throw .unknownAttraction(id) }
        let old = list.attractions[position]
        guard old != newVersion else { return }
        perform(
            .replace(old: old, new: newVersion, at: position), label: "Edit “\(newVersion.name)”")
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
    /// - Throws: ``AttractionStoreError/nothingToUndo``.
    public func undo() throws(AttractionStoreError) {
        guard let entry = history.takeUndo() else { throw .nothingToUndo }
        perform(entry.edit.inverse, label: nil)
    }

    /// Redoes the most recently undone edit.
    ///
    /// - Throws: ``AttractionStoreError/nothingToRedo``.
    public func redo() throws(AttractionStoreError) {
        guard let entry = history.takeRedo() else { throw .nothingToRedo }
        perform(entry.edit, label: nil)
    }

    // MARK: Effects

    /// Applies a checked edit, records it (unless it is an undo or redo), saves and publishes.
    private func perform(_ edit: AttractionEdit, label: String?) {
        let change = list.apply(edit)
        if let label { history.record(edit, label: label) }
        saver?.documentChanged(list.attractions)
        tracer.record(from: .store, to: .observation, describe(change, of: edit))
        changes.publish(change)
    }

    /// A change as a trace shows it: "“Louvre” moved from 2 to 0".
    private func describe(_ change: AttractionListChange, of edit: AttractionEdit) -> String {
        let name = edit.attractionName ?? attraction(withID: change.key)?.name ?? ""
        return "“\(name)” \(change.summary)"
    }

    private func checkPosition(_ position: Int) throws(AttractionStoreError) {
        guard list.attractions.indices.contains(position) else {
            throw .positionOutOfRange(position, count: count)
        }
    }
}
