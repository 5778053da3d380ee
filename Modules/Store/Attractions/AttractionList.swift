public import MVCModel

/// The list of attractions as a value: applies edits and reports what changed, with the values.
///
/// Pure and synchronous, so the store's logic is tested without any I/O; ``AttractionStore``
/// wraps it with undo, publishing and saving. It keeps the position of every id, so finding an
/// attraction by id costs O(1).
///
/// An insert, removal or move shifts the positions after it; instead of renumbering them at once
/// (O(*n*) dictionary writes on every edit, far slower than the array's own shift), the list
/// remembers from where its positions are stale and renumbers only when a lookup needs it.
public struct AttractionList: Sendable, Equatable {
    /// The attractions, in the user's order.
    public private(set) var attractions: [Attraction]
    /// The position of each attraction, by id; exact for the ids listed, correct as a position
    /// only below ``validPositions``.
    private var positions: [Attraction.ID: Int]
    /// Positions below this are correct in ``positions``; at and above it they may be stale.
    private var validPositions: Int

    /// Creates a list holding `attractions`; of several with one id, the first is kept (a file
    /// with such rows is refused before it gets here).
    public init(_ attractions: [Attraction] = []) {
        var positions: [Attraction.ID: Int] = [:]
        var unique: [Attraction] = []
        unique.reserveCapacity(attractions.count)
        for attraction in attractions where positions[attraction.id] == nil {
            positions[attraction.id] = unique.count
            unique.append(attraction)
        }
        self.attractions = unique
        self.positions = positions
        self.validPositions = unique.count
    }

    /// The number of attractions.
    public var count: Int { attractions.count }

    /// Whether an attraction with `id` is in the list.
    ///
    /// - Complexity: O(1).
    public func contains(_ id: Attraction.ID) -> Bool {
        positions[id] != nil
    }

    /// The position of the attraction with `id`, if it is in the list.
    ///
    /// - Complexity: O(1), or O(*n*) for the first lookup after an insert, removal or move.
    public mutating func index(of id: Attraction.ID) -> Int? {
        guard let position = positions[id] else { return nil }
        if position < validPositions { return position }
        renumber(from: validPositions, through: count - 1)
        validPositions = count
        return positions[id]
    }

    /// The position of the attraction with `id`: `hint` if it is there, else looked up.
    private mutating func index(of id: Attraction.ID, hint: Int) -> Int? {
        if attractions.indices.contains(hint), attractions[hint].id == id { return hint }
        return index(of: id)
    }

    /// Applies `edit`, finding its attraction by id.
    ///
    /// - Returns: The change, with the values and the positions it had; `nil` if the edit does
    ///   not fit the list (its attraction is gone, or an insert's id is already listed), in which
    ///   case nothing changed.
    /// - Complexity: O(*n*) for an insert, remove or move; O(1) for a replace.
    public mutating func apply(_ edit: AttractionEdit) -> AttractionListChange? {
        switch edit {
        case .insert(let attraction, let index):
            guard !contains(attraction.id) else { return nil }
            let position = min(max(index, 0), count)
            attractions.insert(attraction, at: position)
            positions[attraction.id] = position
            validPositions = min(validPositions, position)
            return .inserted(attraction, at: position)
        case .remove(let attraction, let hint):
            // Only the attraction as the edit knew it: one edited since (by a merge) is not
            // removed by an undo that never saw that edit.
            guard let position = index(of: attraction.id, hint: hint),
                attractions[position] == attraction
            else { return nil }
            let removed = attractions.remove(at: position)
            positions[removed.id] = nil
            validPositions = min(validPositions, position)
            return .removed(removed, at: position)
        case .move(let id, let hint, let to):
            guard let source = index(of: id, hint: hint) else { return nil }
            let destination = min(max(to, 0), count - 1)
            guard source != destination else { return nil }
            let moving = attractions.remove(at: source)
            attractions.insert(moving, at: destination)
            positions[id] = destination
            validPositions = min(validPositions, source, destination)
            return .moved(moving, from: source, to: destination)
        case .replace(let old, let new):
            guard old.id == new.id, let position = index(of: old.id) else { return nil }
            let current = attractions[position]
            // Field by field: only the fields the edit changed (from `old` to `new`) are set, so
            // a field another process changed meanwhile, merged in since, is kept.
            var result = current
            if old.name != new.name { result.name = new.name }
            if old.notes != new.notes { result.notes = new.notes }
            guard current != result else { return nil }
            attractions[position] = result
            return .replaced(old: current, new: result, at: position)
        }
    }

    /// Records the positions of the attractions in `first...last` after they shifted.
    private mutating func renumber(from first: Int, through last: Int) {
        guard first <= last else { return }
        for position in first...last { positions[attractions[position].id] = position }
    }

    /// Whether two lists hold the same attractions in the same order.
    public static func == (lhs: AttractionList, rhs: AttractionList) -> Bool {
        lhs.attractions == rhs.attractions
    }
}
