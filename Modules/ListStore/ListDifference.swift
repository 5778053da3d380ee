public import MVCElements

/// The edits that turn one list into another, for publishing a merge as ordinary fine-grained
/// changes.
public enum ListDifference<Element: ListElement> {
    /// Edits that, applied in order with ``EditableList/apply(_:)``, turn `old` into `new`:
    /// removals first, then moves, then replacements, then insertions at their final positions.
    ///
    /// Moves are few: the elements whose relative order both lists share (a longest increasing
    /// subsequence) stay put, and only the others move, each right after the element it follows in
    /// `new`. Another process moving one element is one move, not one per row it passed.
    ///
    /// - Complexity: O(*n* log *n*), plus O(*n*) per moved element.
    public static func changes(from old: [Element], to new: [Element]) -> [ListEdit<Element>] {
        // What both begin and end with is left as it is: another process's commit usually changes
        // a few rows of a long list. (Each list's ids are unique: none of the rest is in either.)
        let start = zip(old, new).prefix { $0 == $1 }.count
        let end = zip(old[start...].reversed(), new[start...].reversed()).prefix { $0 == $1 }.count
        guard start > 0 || end > 0 else { return middleChanges(from: old, to: new) }
        return middleChanges(
            from: Array(old[start..<(old.count - end)]), to: Array(new[start..<(new.count - end)])
        ).map { $0.shifted(by: start) }
    }

    private static func middleChanges(from old: [Element], to new: [Element]) -> [ListEdit<Element>]
    {
        let newByID = Dictionary(new.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let oldIDs = Set(old.map(\.id))
        var edits: [ListEdit<Element>] = []

        var remaining: [Element] = []
        for element in old {
            if newByID[element.id] == nil {
                // The position it has once the removals before it are done.
                edits.append(.remove(element, at: remaining.count))
            } else {
                remaining.append(element)
            }
        }

        let target = new.map(\.id).filter(oldIDs.contains)
        edits += moves(from: remaining.map(\.id), to: target)

        for element in remaining {
            if let newer = newByID[element.id], newer != element {
                edits.append(.replace(old: element, new: newer))
            }
        }

        for (position, element) in new.enumerated() where !oldIDs.contains(element.id) {
            edits.append(.insert(element, at: position))
        }
        return edits
    }

    /// The moves that turn `order` into `target` (the same ids, in another order).
    private static func moves(from order: [Element.ID], to target: [Element.ID])
        -> [ListEdit<Element>]
    {
        let targetIndex = Dictionary(
            target.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let staying = longestIncreasingRun(order.compactMap { targetIndex[$0] })
        var order = order
        var edits: [ListEdit<Element>] = []
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

    /// The ids of `order` that moved since `base`.
    ///
    /// Of the ids both list, those outside a longest run that kept its relative order; ids only
    /// one lists are not counted as moved.
    ///
    /// - Complexity: O(*n* log *n*).
    public static func moved(from base: [Element.ID], to order: [Element.ID]) -> Set<Element.ID> {
        let baseIndex = Dictionary(
            base.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let shared = order.filter { baseIndex[$0] != nil }
        let staying = longestIncreasingRun(shared.compactMap { baseIndex[$0] })
        return Set(shared.filter { id in baseIndex[id].map { !staying.contains($0) } ?? false })
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

extension ListEdit {
    /// The same edit, `offset` places further down the list.
    fileprivate func shifted(by offset: Int) -> ListEdit {
        switch self {
        case .insert(let element, let index): .insert(element, at: index + offset)
        case .remove(let element, let index): .remove(element, at: index + offset)
        case .move(let id, let from, let to): .move(id, from: from + offset, to: to + offset)
        case .replace: self
        }
    }
}
