public import MVCModel

/// One undoable edit of the list, holding everything needed to apply it and to reverse it.
public enum AttractionEdit: Sendable, Equatable {
    /// Insert an attraction at a position.
    case insert(Attraction, at: Int)
    /// Remove the attraction at a position (the attraction is kept, to put it back).
    case remove(Attraction, at: Int)
    /// Move the attraction at one position to another.
    case move(Attraction.ID, from: Int, to: Int)
    /// Replace the attraction at a position by a new version (the old one is kept).
    case replace(old: Attraction, new: Attraction, at: Int)

    /// The name of the attraction the edit is about, where the edit holds it (a move does not).
    var attractionName: String? {
        switch self {
        case .insert(let attraction, _), .remove(let attraction, _): attraction.name
        case .replace(_, let new, _): new.name
        case .move: nil
        }
    }

    /// The edit that undoes this one.
    public var inverse: AttractionEdit {
        switch self {
        case .insert(let attraction, let index): .remove(attraction, at: index)
        case .remove(let attraction, let index): .insert(attraction, at: index)
        case .move(let id, let from, let to): .move(id, from: to, to: from)
        case .replace(let old, let new, let index): .replace(old: new, new: old, at: index)
        }
    }
}

/// The list of attractions as a value: applies edits and reports what changed.
///
/// Pure and synchronous, so the store's logic is tested without any I/O; ``AttractionStore``
/// wraps it with undo, publishing and saving.
public struct AttractionList: Sendable, Equatable {
    /// The attractions, in the user's order.
    public private(set) var attractions: [Attraction]
    /// The ids of the attractions, so that checking for a duplicate costs O(1), not O(*n*).
    private var ids: Set<Attraction.ID>

    /// Creates a list holding `attractions`.
    public init(_ attractions: [Attraction] = []) {
        self.attractions = attractions
        self.ids = Set(attractions.map(\.id))
    }

    /// Whether an attraction with `id` is in the list.
    ///
    /// - Complexity: O(1).
    public func contains(_ id: Attraction.ID) -> Bool {
        ids.contains(id)
    }

    /// Applies `edit`, which must fit the list (the store checks positions before building edits).
    ///
    /// - Returns: The change a list screen needs to show the edit.
    /// - Complexity: O(*n*) for an insert, remove or move; O(1) for a replace.
    public mutating func apply(_ edit: AttractionEdit) -> AttractionListChange {
        switch edit {
        case .insert(let attraction, let index):
            attractions.insert(attraction, at: index)
            ids.insert(attraction.id)
            return .inserted(attraction.id, at: index)
        case .remove(let attraction, let index):
            attractions.remove(at: index)
            ids.remove(attraction.id)
            return .removed(attraction.id, at: index)
        case .move(let id, let from, let to):
            let moving = attractions.remove(at: from)
            attractions.insert(moving, at: to)
            return .moved(id, from: from, to: to)
        case .replace(_, let new, let index):
            attractions[index] = new
            return .updated(new.id, at: index)
        }
    }

    /// The position of the attraction with `id`, if it is in the list.
    ///
    /// - Complexity: O(*n*).
    public func index(of id: Attraction.ID) -> Int? {
        guard ids.contains(id) else { return nil }
        return attractions.firstIndex { $0.id == id }
    }
}
