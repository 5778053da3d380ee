public import MVCModel
public import MVCObservation

/// One fine-grained change to the list of attractions, so that a list can update one row.
///
/// Positions are those of the list right after the change (for ``removed(_:at:)``, the position
/// the attraction had). Each change is keyed by the attraction it is about, so a screen showing
/// one attraction can subscribe to that attraction only.
public enum AttractionListChange: KeyedUpdate, Sendable, Equatable {
    /// An attraction was inserted at a position.
    case inserted(Attraction.ID, at: Int)
    /// The attraction that was at a position was removed.
    case removed(Attraction.ID, at: Int)
    /// An attraction moved from one position to another.
    case moved(Attraction.ID, from: Int, to: Int)
    /// The attraction at a position was replaced by a new version of itself.
    case updated(Attraction.ID, at: Int)

    /// The attraction the change is about.
    public var key: Attraction.ID {
        switch self {
        case .inserted(let id, _), .removed(let id, _), .moved(let id, _, _), .updated(let id, _):
            id
        }
    }

    /// The change without the attraction's id, for traces a reader can follow: "inserted at 0".
    public var summary: String {
        switch self {
        case .inserted(_, let position): "inserted at \(position)"
        case .removed(_, let position): "removed from \(position)"
        case .moved(_, let source, let destination): "moved from \(source) to \(destination)"
        case .updated(_, let position): "updated at \(position)"
        }
    }
}
