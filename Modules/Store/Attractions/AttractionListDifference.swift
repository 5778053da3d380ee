public import MVCModel

/// The edits that turn one list of attractions into another, for publishing a merge as ordinary
/// fine-grained changes.
public enum AttractionListDifference {
    /// Edits that, applied in order with ``AttractionList/apply(_:)``, turn `old` into `new`:
    /// removals first, then moves, then replacements, then insertions at their final positions.
    ///
    /// - Complexity: O(*n*) plus O(*n*) per moved attraction.
    public static func changes(from old: [Attraction], to new: [Attraction]) -> [AttractionEdit] {
        let newByID = Dictionary(new.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let oldIDs = Set(old.map(\.id))
        var edits: [AttractionEdit] = []

        var remaining: [Attraction] = []
        for (position, attraction) in old.enumerated() {
            if newByID[attraction.id] == nil {
                edits.append(.remove(attraction, at: position))
            } else {
                remaining.append(attraction)
            }
        }

        var order = remaining.map(\.id)
        let target = new.map(\.id).filter(oldIDs.contains)
        for position in target.indices where order[position] != target[position] {
            guard let source = order[position...].firstIndex(of: target[position]) else { continue }
            order.insert(order.remove(at: source), at: position)
            edits.append(.move(target[position], from: source, to: position))
        }

        for attraction in remaining {
            if let newer = newByID[attraction.id], newer != attraction {
                edits.append(.replace(old: attraction, new: newer))
            }
        }

        for (position, attraction) in new.enumerated() where !oldIDs.contains(attraction.id) {
            edits.append(.insert(attraction, at: position))
        }
        return edits
    }
}
