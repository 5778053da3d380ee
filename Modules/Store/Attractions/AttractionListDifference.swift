public import MVCModel

/// The edits that turn one list of attractions into another, for publishing a merge as ordinary
/// fine-grained changes.
public enum AttractionListDifference {
    /// Edits that, applied in order with ``AttractionList/apply(_:)``, turn `old` into `new`:
    /// removals first, then moves, then replacements, then insertions at their final positions.
    ///
    /// Moves are few: the attractions whose relative order both lists share (a longest increasing
    /// subsequence) stay put, and only the others move, each right after the attraction it follows
    /// in `new`. Another process moving one attraction is one move, not one per row it passed.
    ///
    /// - Complexity: O(*n* log *n*), plus O(*n*) per moved attraction.
    public static func changes(from old: [Attraction], to new: [Attraction]) -> [AttractionEdit] {
        let newByID = Dictionary(new.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let oldIDs = Set(old.map(\.id))
        var edits: [AttractionEdit] = []

        var remaining: [Attraction] = []
        for attraction in old {
            if newByID[attraction.id] == nil {
                // The position it has once the removals before it are done.
                edits.append(.remove(attraction, at: remaining.count))
            } else {
                remaining.append(attraction)
            }
        }

        let target = new.map(\.id).filter(oldIDs.contains)
        edits += moves(from: remaining.map(\.id), to: target)

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

    /// The moves that turn `order` into `target` (the same ids, in another order).
    private static func moves(from order: [Attraction.ID], to target: [Attraction.ID])
        -> [AttractionEdit]
    {
        let targetIndex = Dictionary(
            target.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let staying = longestIncreasingRun(order.compactMap { targetIndex[$0] })
        var order = order
        var edits: [AttractionEdit] = []
        for (index, id) in target.enumerated() where !staying.contains(index) {
            guard let source = order.firstIndex(of: id) else { continue }
            order.remove(at: source)
            let destination =
                index == 0 ? 0 : (order.firstIndex(of: target[index - 1]).map { $0 + 1 } ?? 0)
            order.insert(id, at: destination)
            edits.append(.move(id, from: source, to: destination))
        }
        return edits
    }

    /// The values of a longest strictly increasing subsequence of `values` (patience sorting).
    ///
    /// - Complexity: O(*n* log *n*).
    static func longestIncreasingRun(_ values: [Int]) -> Set<Int> {
        var tails: [Int] = []  // index into values of the smallest tail of each length
        var previous = [Int](repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var result = Set<Int>()
        var index = tails.last ?? -1
        while index >= 0 {
            result.insert(values[index])
            index = previous[index]
        }
        return result
    }
}
