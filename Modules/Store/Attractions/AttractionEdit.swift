public import MVCModel

/// One undoable edit of the list, holding everything needed to apply it and to reverse it.
///
/// Edits find their attraction by id, not by position: an undo still reaches the right attraction
/// after the list changed under it, in this process or in another one whose save was merged in.
/// Positions are where an attraction goes (clamped to the list), never which one is meant.
public enum AttractionEdit: Sendable, Equatable {
    /// Insert an attraction at a position (clamped to the list's bounds).
    case insert(Attraction, at: Int)
    /// Remove the attraction with this one's id; the position it had is kept to put it back.
    case remove(Attraction, at: Int)
    /// Move the attraction with an id from one position to another (clamped).
    case move(Attraction.ID, from: Int, to: Int)
    /// Replace the attraction with `old`'s id by a new version of it.
    case replace(old: Attraction, new: Attraction)

    /// The name of the attraction the edit is about, where the edit holds it (a move does not).
    var attractionName: String? {
        switch self {
        case .insert(let attraction, _), .remove(let attraction, _): attraction.name
        case .replace(_, let new): new.name
        case .move: nil
        }
    }

    /// The edit that undoes this one.
    public var inverse: AttractionEdit {
        switch self {
        case .insert(let attraction, let index): .remove(attraction, at: index)
        case .remove(let attraction, let index): .insert(attraction, at: index)
        case .move(let id, let from, let to): .move(id, from: to, to: from)
        case .replace(let old, let new): .replace(old: new, new: old)
        }
    }
}
