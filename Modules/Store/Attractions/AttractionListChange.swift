public import MVCModel
public import MVCObservation

/// One fine-grained change to the list of attractions, carrying the values it is about, so that a
/// list screen updates one row from the change alone, without reading the store.
///
/// Positions are those of the list right after the change (for ``removed(_:at:)``, the position
/// the attraction had). Each change is keyed by the attraction it is about, so a screen showing
/// one attraction can subscribe to that attraction only.
public enum AttractionListChange: KeyedUpdate, Sendable, Equatable {
    /// This attraction was inserted at a position.
    case inserted(Attraction, at: Int)
    /// This attraction, which was at a position, was removed.
    case removed(Attraction, at: Int)
    /// This attraction moved from one position to another.
    case moved(Attraction, from: Int, to: Int)
    /// The attraction at a position was replaced by a new version of itself.
    case replaced(old: Attraction, new: Attraction, at: Int)

    /// The attraction the change is about, as it is after the change (as it was, if removed).
    public var attraction: Attraction {
        switch self {
        case .inserted(let attraction, _), .removed(let attraction, _),
            .moved(let attraction, _, _), .replaced(_, let attraction, _):
            attraction
        }
    }

    /// The id of the attraction the change is about.
    public var key: Attraction.ID { attraction.id }

    /// The change as a trace shows it: "“Louvre” moved from 2 to 0".
    public var summary: String {
        switch self {
        case .inserted(let attraction, let position):
            "“\(attraction.name)” inserted at \(position)"
        case .removed(let attraction, let position):
            "“\(attraction.name)” removed from \(position)"
        case .moved(let attraction, let source, let destination):
            "“\(attraction.name)” moved from \(source) to \(destination)"
        case .replaced(_, let attraction, let position):
            "“\(attraction.name)” updated at \(position)"
        }
    }
}
