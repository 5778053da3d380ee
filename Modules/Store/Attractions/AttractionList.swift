public import MVCModel

/// The list of attractions as a value: applies edits and reports what changed, with the values.
///
/// Pure and synchronous, so the store's logic is tested without any I/O; ``AttractionStore``
/// wraps it with undo, publishing and saving. It keeps the position of every id, so finding an
/// attraction by id costs O(1).
public struct AttractionList: Sendable, Equatable {
    /// The attractions, in the user's order.
    public private(set) var attractions: [Attraction]
    /// The position of each attraction, by id.
    private var positions: [Attraction.ID: Int]

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
    /// - Complexity: O(1).
    public func index(of id: Attraction.ID) -> Int? {
        positions[id]
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
            renumber(from: position, through: count - 1)
            return .inserted(attraction, at: position)
        case .remove(let attraction, _):
            guard let position = positions[attraction.id] else { return nil }
            let removed = attractions.remove(at: position)
            positions[removed.id] = nil
            renumber(from: position, through: count - 1)
            return .removed(removed, at: position)
        case .move(let id, _, let to):
            guard let source = positions[id] else { return nil }
            let destination = min(max(to, 0), count - 1)
            guard source != destination else { return nil }
            let moving = attractions.remove(at: source)
            attractions.insert(moving, at: destination)
            renumber(from: min(source, destination), through: max(source, destination))
            return .moved(moving, from: source, to: destination)
        case .replace(let old, let new):
            guard old.id == new.id, let position = positions[old.id] else { return nil }
            let current = attractions[position]
            guard current != new else { return nil }
            attractions[position] = new
            return .replaced(old: current, new: new, at: position)
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
