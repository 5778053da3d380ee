public import MVCElements
public import MVCObservation
public import MVCTracing

/// Owns a list of elements: adds, replaces, moves, deletes, undoes and redoes, publishes each
/// change, and hands every new version of the list to its saver.
///
/// Every edit is checked before anything changes, so a refused edit (a bad position, an unknown
/// element, a value that breaks the model's rules) throws and leaves the list, the history and
/// the file as they were. Every edit is undoable, in order, with a label a menu can show; undo
/// and redo find their element by id, so they stay right after a merge.
///
/// Changes are published on ``changes`` as ``ListStoreUpdate`` values that carry the elements
/// they are about, keyed by element (subscribe to all, or to one element's key), another
/// process's changes too (``takeIn(base:fileVersion:notices:)``, ``takeIn(_:)``).
///
/// It keeps the list through a port, ``ListPersistence``, whose adapters each open a store
/// (`open(at:)`, `openDatabase(at:)`, `openTable(at:)`) and hand its ``ListInbox`` what arrives
/// from elsewhere. It knows no element type, only ``/MVCElements/ListElement``'s declarations.
@MainActor
public final class ListStore<Element: ListElement> {
    /// The update of each edit, undo, redo and merge, once the list and history changed: a feed
    /// only the store publishes on.
    public var changes: UpdateSubscriptions<ListStoreUpdate<Element>> { channel.subscriptions }
    private let channel = UpdateChannel<ListStoreUpdate<Element>>()
    /// Where saving stands (a repeated failure is a new value), written only by the store.
    public var saving: ReadOnlyProperty<SaveStatus> { savingProperty.readOnly }
    let savingProperty = ObservableProperty<SaveStatus>(.saved)
    /// The latest conflict resolved, if any: while taking in another process's save, or when an
    /// editor's save met a change made elsewhere to the same field.
    public var notice: ReadOnlyProperty<ListStoreNotice?> { noticeProperty.readOnly }
    let noticeProperty = ObservableProperty<ListStoreNotice?>(nil)
    @usableFromInline var list: EditableList<Element>
    var history = UndoHistory<ListEdit<Element>>()
    let persistence: (any ListPersistence<Element>)?
    let tracer: HopTracer
    private var savingToken: ObservationToken?
    var (noticeCount, indexing) = (0, Task<Void, Never>?.none)

    /// Creates a store holding `elements`.
    ///
    /// - Parameters:
    ///   - elements: The list to start with, in order (of several with one id, the first).
    ///   - persistence: Told each edit, to keep it; `nil` keeps the list in memory only.
    ///   - tracer: Told each hop from the store to the observation layer and to persistence.
    public convenience init(
        _ elements: [Element] = [],
        persistence: (any ListPersistence<Element>)? = nil,
        tracer: HopTracer = .disabled
    ) {
        self.init(EditableList(elements), persistence: persistence, tracer: tracer)
    }

    /// Creates a store holding `list`, built beforehand (a long list off the main actor).
    ///
    /// - Parameters:
    ///   - list: The list to start with.
    ///   - persistence: Told each edit, to keep it; `nil` keeps the list in memory only.
    ///   - tracer: Told each hop from the store to the observation layer and to persistence.
    public init(
        _ list: EditableList<Element>,
        persistence: (any ListPersistence<Element>)? = nil,
        tracer: HopTracer = .disabled
    ) {
        self.list = list
        self.persistence = persistence
        self.tracer = tracer
        savingToken = persistence.map(followSaving)
        persistence?.connect(to: self)
        if !list.isIndexed { indexInBackground() }
    }

    // MARK: Reading

    /// The elements, in the user's order.
    public var elements: [Element] { list.elements }

    /// The number of elements.
    public var count: Int { list.count }

    /// The element at `position` (counting from 0).
    ///
    /// - Throws: ``ListStoreError/positionOutOfRange(_:count:)``.
    public func element(at position: Int) throws(ListStoreError<Element>) -> Element {
        try checkPosition(position)
        return list.elements[position]
    }

    /// The element with `id`, if it is in the list; O(1).
    public func element(withID id: Element.ID) -> Element? {
        list.index(of: id).map { list.elements[$0] }
    }

    /// The position of the element with `id`, if it is in the list; O(1), or O(*n*) for the
    /// first lookup after an insert, removal or move.
    public func position(of id: Element.ID) -> Int? { list.index(of: id) }

    // MARK: Editing

    /// Merges an editor's changes into the element it was opened on, wherever it now is.
    ///
    /// Saving an edit is a merge, not a replace: only the fields the editor changed (from
    /// `original` to `edited`) are written, so a field
    /// that another process changed while the editor was open, and that was merged in since, is
    /// kept. A field both changed keeps the other change, by the rule every merge uses
    /// (``ElementMerge/fieldwise(base:ours:theirs:)``), and a ``notice`` names the element, the
    /// field and both values.
    ///
    /// - Throws: as ``replace(_:with:)``.
    public func mergeEdit(of original: Element, result edited: Element)
        throws(ListStoreError<Element>)
    {
        guard edited.id == original.id else {
            throw .mismatchedID(expected: original.id, found: edited.id)
        }
        if let problem = edited.problems.first { throw .brokenRule(problem) }
        guard let current = element(withID: original.id) else {
            throw .unknownElement(original.id)
        }
        // The field rule every merge uses: a field both changed keeps the change made elsewhere.
        let (merged, notices) = ElementMerge.fieldwise(
            base: original, ours: edited, theirs: current)
        try replace(original.id, with: merged)
        for message in notices { post(message) }
    }

    /// Adds `element` at `position`, or at the end.
    ///
    /// - Throws: ``ListStoreError/brokenRule(_:)`` if it breaks the model's rules;
    ///   ``ListStoreError/duplicateElement(_:)`` if its id is already listed;
    ///   ``ListStoreError/positionOutOfRange(_:count:)`` for a position past the end.
    public func add(_ element: Element, at position: Int? = nil) throws(ListStoreError<Element>) {
        if let problem = element.problems.first { throw .brokenRule(problem) }
        guard !list.contains(element.id) else { throw .duplicateElement(element.id) }
        let position = position ?? count
        guard (0...count).contains(position) else {
            throw .positionOutOfRange(position, count: count)
        }
        perform(.insert(element, at: position), title: element.title)
    }

    /// Replaces the element with `id` by `newVersion`, wherever it now is in the list.
    ///
    /// Replacing by id, not by position, means an editor opened before the list was reordered
    /// still replaces the right element. Replacing with an equal value changes nothing.
    ///
    /// - Throws: ``ListStoreError/unknownElement(_:)`` if it was deleted meanwhile;
    ///   ``ListStoreError/mismatchedID(expected:found:)`` if `newVersion` has another id;
    ///   ``ListStoreError/brokenRule(_:)`` if it breaks the model's rules.
    /// - Complexity: O(1).
    @inlinable public func replace(_ id: Element.ID, with newVersion: Element)
        throws(ListStoreError<Element>)
    {
        guard newVersion.id == id else { throw .mismatchedID(expected: id, found: newVersion.id) }
        if let problem = newVersion.problems.first { throw .brokenRule(problem) }
        guard let position = list.index(of: id) else { throw .unknownElement(id) }
        let old = list.elements[position]
        guard old != newVersion else { return }
        perform(.replace(old: old, new: newVersion), title: newVersion.title, checkedAt: position)
    }

    /// Moves the element at `source` so that it ends up at `destination`.
    ///
    /// - Throws: ``ListStoreError/positionOutOfRange(_:count:)`` for either position.
    public func move(from source: Int, to destination: Int) throws(ListStoreError<Element>) {
        try checkPosition(source)
        try checkPosition(destination)
        guard source != destination else { return }
        let moving = list.elements[source]
        perform(.move(moving.id, from: source, to: destination), title: moving.title)
    }

    /// Deletes the element at `position`.
    ///
    /// - Returns: The deleted element.
    /// - Throws: ``ListStoreError/positionOutOfRange(_:count:)``.
    @discardableResult
    public func delete(at position: Int) throws(ListStoreError<Element>) -> Element {
        try checkPosition(position)
        let deleted = list.elements[position]
        perform(.remove(deleted, at: position), title: deleted.title)
        return deleted
    }

    // MARK: Effects

    /// Applies an edit, records it naming its element `title` (unless it is an undo or redo,
    /// which has none), saves and publishes.
    ///
    /// - Returns: Whether the edit fit the list (an undo may not, after a merge).
    @discardableResult @usableFromInline
    func perform(
        _ edit: ListEdit<Element>, title: String?, checkedAt checked: Int? = nil
    ) -> Bool {
        guard let change = list.apply(edit, checkedAt: checked) else {
            return false
        }
        if let title { history.record(edit, label: edit.label(title: title)) }
        recordForSaving(change)
        publish(change)
        return true
    }

    func publish(_ change: ListChange<Element>) {
        tracer.record(from: .store, to: .observation, change.summary)
        channel.publish(
            ListStoreUpdate(
                change: change, undoLabel: history.undoLabel, redoLabel: history.redoLabel))
    }

    private func checkPosition(_ position: Int) throws(ListStoreError<Element>) {
        guard list.elements.indices.contains(position) else {
            throw .positionOutOfRange(position, count: count)
        }
    }
}
