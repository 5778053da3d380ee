public import MVCElements

/// A list of elements as a value: applies edits and reports what changed, with the values.
///
/// Pure and synchronous, so the store's logic is tested without any I/O; ``ListStore`` wraps it
/// with undo, publishing and saving. It keeps the position of every id, so finding an element by
/// id costs O(1).
///
/// An insert, removal or move shifts the positions after it; instead of renumbering them at once
/// (O(*n*) dictionary writes on every edit, far slower than the array's own shift), the list
/// remembers from where its positions are stale and renumbers only when a lookup needs it.
///
/// A list made with ``init(distinctIDs:)`` (rows a database keeps each id of once) indexes its
/// ids only when first asked, or when ``ListStore`` hands it the index it built on another thread:
/// a long list is shown before its ids are indexed.
public struct EditableList<Element: ListElement>: Sendable, Equatable {
    /// The elements, in the user's order.
    public private(set) var elements: [Element]
    /// The position of each element, by id (none until ``isIndexed``); exact for the ids listed,
    /// correct as a position only below ``validPositions``.
    @usableFromInline var positions: [Element.ID: Int]
    /// Positions below this are correct in ``positions``; at and above it they may be stale.
    @usableFromInline var validPositions: Int
    /// Whether the position of every id is kept; every edit and lookup by id indexes the list
    /// first.
    public var isIndexed: Bool { hasIndex }
    @usableFromInline var hasIndex: Bool

    /// Creates a list holding `elements`; of several with one id, the first is kept (a file with
    /// such rows is refused before it gets here).
    ///
    /// Inlinable, so that a million ids are hashed by code compiled for the element's id, not
    /// through its conformances (a fifth of opening a million rows).
    @inlinable
    public init(_ elements: [Element] = []) {
        let (kept, positions) = Self.indexed(elements)
        self.init(kept: kept, positions: positions)
    }

    @usableFromInline
    init(kept: [Element], positions: [Element.ID: Int]) {
        elements = kept
        self.positions = positions
        validPositions = kept.count
        hasIndex = true
    }

    /// Creates a list holding `elements`, whose ids are known to be distinct (a database's
    /// primary key keeps each once), not indexed until first needed.
    ///
    /// - Precondition: No two elements have one id; an id listed twice is found by the first
    ///   of them only.
    public init(distinctIDs elements: [Element]) {
        self.elements = elements
        positions = [:]
        validPositions = 0
        hasIndex = false
    }

    /// The position of each of `elements`' ids (the first, for an id listed twice): the index a
    /// list of `elements` made with ``init(distinctIDs:)`` needs, built on any thread, and taken
    /// by `adoptIndex(_:of:)`.
    @inlinable
    static func positions(of elements: [Element]) -> [Element.ID: Int] {
        var positions: [Element.ID: Int] = [:]
        positions.reserveCapacity(elements.count)
        for index in elements.indices {
            // One lookup: the position is stored, and the first put back if there was one.
            var position = index
            swap(&position, &positions[elements[index].id, default: index])
            if position != index { positions[elements[index].id] = position }
        }
        return positions
    }

    /// Takes `index`, built by `positions(of:)` from `elements`, if the list is not indexed yet
    /// and still holds that very array (the same storage, not merely equal elements); otherwise
    /// leaves it.
    ///
    /// - Returns: Whether the index was taken.
    @discardableResult
    mutating func adoptIndex(_ index: [Element.ID: Int], of elements: [Element]) -> Bool {
        let same = self.elements.withUnsafeBufferPointer { mine in
            elements.withUnsafeBufferPointer { theirs in
                mine.baseAddress == theirs.baseAddress && mine.count == theirs.count
            }
        }
        guard !isIndexed, same else { return false }
        (positions, validPositions, hasIndex) = (index, elements.count, true)
        return true
    }

    /// Indexes every id now, if the list is not indexed yet.
    @inlinable
    mutating func indexIDs() {
        guard !hasIndex else { return }
        positions = Self.positions(of: elements)
        validPositions = count
        hasIndex = true
    }

    /// `elements` without a later one of an id already listed, and the position of each id.
    @inlinable
    static func indexed(_ elements: [Element]) -> ([Element], [Element.ID: Int]) {
        var positions = Self.positions(of: elements)
        // Ids are unique in almost every list: the array is then kept as it is, not copied
        // element by element (a million copies are a tenth of opening a million rows).
        if positions.count == elements.count { return (elements, positions) }
        positions.removeAll(keepingCapacity: true)
        var unique: [Element] = []
        unique.reserveCapacity(elements.count)
        for element in elements {
            // One lookup: the position is stored unless the id has one already (the first
            // element with an id wins).
            let next = unique.count
            var position = next
            swap(&position, &positions[element.id, default: next])
            if position == next {
                unique.append(element)
            } else {
                positions[element.id] = position
            }
        }
        return (unique, positions)
    }

    /// The number of elements.
    public var count: Int { elements.count }

    /// Whether an element with `id` is in the list.
    ///
    /// - Complexity: O(1); O(*n*) while the list is not indexed.
    public func contains(_ id: Element.ID) -> Bool {
        isIndexed ? positions[id] != nil : elements.contains { $0.id == id }
    }

    /// The position of the element with `id`, if it is in the list.
    ///
    /// - Complexity: O(1), or O(*n*) for the first lookup after an insert, removal or move, or
    ///   while the list is not indexed.
    @inlinable
    public mutating func index(of id: Element.ID) -> Int? {
        indexIDs()
        guard let position = positions[id] else { return nil }
        if position < validPositions { return position }
        renumber(from: validPositions, through: count - 1)
        validPositions = count
        return positions[id]
    }

    /// The position of the element with `id`: `hint` if it is there, else looked up.
    private mutating func index(of id: Element.ID, hint: Int?) -> Int? {
        if let hint, elements.indices.contains(hint), elements[hint].id == id { return hint }
        return index(of: id)
    }

    /// Applies `edit`, finding its element by id.
    ///
    /// - Returns: The change, with the values and the positions it had; `nil` if the edit does
    ///   not fit the list (its element is gone, or an insert's id is already listed), in which
    ///   case nothing changed.
    /// - Complexity: O(*n*) for an insert or remove; O(distance) for a move; O(1) for a replace.
    public mutating func apply(_ edit: ListEdit<Element>) -> ListChange<Element>? {
        apply(edit, checkedAt: nil)
    }

    /// Applies `edit`; with `checked`, a replace's new value is known to keep the rules (the
    /// store checked it, and just found the element at `checked`, looked up again only if it is
    /// not there), so it is not checked again.
    mutating func apply(_ edit: ListEdit<Element>, checkedAt checked: Int?)
        -> ListChange<Element>?
    {
        indexIDs()
        switch edit {
        case .insert(let element, let index):
            guard !contains(element.id) else { return nil }
            let position = min(max(index, 0), count)
            elements.insert(element, at: position)
            positions[element.id] = position
            validPositions = min(validPositions, position)
            return .inserted(element, at: position)
        case .remove(let element, let hint):
            // Only the element as the edit knew it: one edited since (by a merge) is not removed
            // by an undo that never saw that edit.
            guard let position = index(of: element.id, hint: hint), elements[position] == element
            else { return nil }
            let removed = elements.remove(at: position)
            positions[removed.id] = nil
            validPositions = min(validPositions, position)
            return .removed(removed, at: position)
        case .move(let id, let hint, let to):
            guard let source = index(of: id, hint: hint) else { return nil }
            let destination = min(max(to, 0), count - 1)
            guard source != destination else { return nil }
            // Only the rows between the two positions shift, one place each: a short move in a
            // long list costs its distance, not the list's length. A long one is faster as a
            // removal and an insertion, which move the rows after it in bulk.
            let moving = elements[source]
            let (low, high) = (min(source, destination), max(source, destination))
            if (high - low) * 16 > count - low {
                elements.remove(at: source)
                elements.insert(moving, at: destination)
            } else if source < destination {
                for position in source..<destination { elements[position] = elements[position + 1] }
            } else {
                for position in stride(from: source, to: destination, by: -1) {
                    elements[position] = elements[position - 1]
                }
            }
            elements[destination] = moving
            if high - low <= Self.renumberedAtOnce {
                // Renumber the shifted rows up to `validPositions` (the row that moved up onto it
                // was recorded below it); those past it are renumbered when a lookup needs them.
                renumber(from: low, through: min(high, validPositions))
            } else {
                // A long way: left to the next lookup that needs them, as after an insertion, so
                // several moves by position renumber once.
                validPositions = min(validPositions, low)
            }
            positions[id] = destination
            return .moved(moving, from: source, to: destination)
        case .replace(let old, let new):
            guard old.id == new.id, let position = index(of: old.id, hint: checked) else {
                return nil
            }
            let current = elements[position]
            let result: Element
            if current == old {
                // The usual case, nothing merged in since the edit began: the result is `new`,
                // checked against the rules once, here.
                guard current != new, checked != nil || new.problems.isEmpty else { return nil }
                result = new
            } else {
                // Field by field: only the fields the edit changed (from `old` to `new`) are set,
                // so a field another process changed meanwhile, merged in since, is kept.
                result = current.applying(editFrom: old, to: new)
                // A result that breaks a rule (the edit's fields and a merged-in field that must
                // agree) does not fit the list.
                guard current != result, result.problems.isEmpty else { return nil }
            }
            elements[position] = result
            return .replaced(old: current, new: result, at: position)
        }
    }

    /// The longest move whose shifted rows are renumbered at once.
    private static var renumberedAtOnce: Int { 4_096 }

    /// Records the positions of the elements in `first...last` after they shifted.
    @usableFromInline
    mutating func renumber(from first: Int, through last: Int) {
        guard first <= last else { return }
        for position in first...last { positions[elements[position].id] = position }
    }

    /// Whether two lists hold the same elements in the same order.
    public static func == (lhs: EditableList, rhs: EditableList) -> Bool {
        lhs.elements == rhs.elements
    }
}
