package import MVCElements

/// One edit on its way to a database, with the element's neighbours in this process's list
/// after it (`nil` at an end), which say where it goes.
package struct RowWrite<Element: ListElement>: Sendable {
    package var change: ListChange<Element>
    package var predecessor: Element.ID?
    package var successor: Element.ID?

    /// The write for `change`, made when `elements` is the whole list after it.
    package init(change: ListChange<Element>, in elements: [Element]) {
        self.change = change
        switch change {
        case .inserted(_, let at), .moved(_, _, let at), .replaced(_, _, let at):
            predecessor = at > 0 ? elements[at - 1].id : nil
            successor = at + 1 < elements.count ? elements[at + 1].id : nil
        case .removed: break
        }
    }

    /// The element before the change, as the process that made it last saw it (`nil`: not there).
    package var base: Element? {
        switch change {
        case .inserted: nil
        case .removed(let element, _), .moved(let element, _, _), .replaced(let element, _, _):
            element
        }
    }

    /// The element after the change (`nil`: deleted).
    package var ours: Element? {
        switch change {
        case .removed: nil
        case .inserted(let element, _), .moved(let element, _, _), .replaced(_, let element, _):
            element
        }
    }
}

/// One step of a row write: what a merged edit does to the stored row.
package enum RowStep<Element: ListElement> {
    /// Delete the row.
    case delete
    /// Insert the element, at a rank placed among its neighbours.
    case insert(Element)
    /// Set the stored row's fields to the element's.
    case update(Element)
    /// Give the row a rank placed among its neighbours.
    case rank
}

extension RowWrite {
    /// Merges this edit with the stored row by ``ElementMerge``, and says what to write, the one
    /// decision every database adapter asks inside its write's transaction.
    ///
    /// A row another program changed keeps its edits; a result that would break the element's
    /// rules is not written (the stored row stays, told); an insert over a row that exists merges.
    ///
    /// - Parameter stored: `nil` if no row has the id; `.some(nil)` if one does that cannot be
    ///   read or breaks a rule (skipped and told at its look, it is no deletion: it counts as
    ///   untouched, so this process's version is written over it).
    package func plan(stored: Element??) -> (
        outcome: ElementMerge<Element>.Outcome, steps: [RowStep<Element>]
    ) {
        let theirs = stored.map { $0 ?? base ?? ours }
        let outcome = ElementMerge.resolve(base: base, ours: ours, theirs: theirs ?? nil)
        switch (outcome.element, stored) {
        case (nil, nil): return (outcome, [])
        case (nil, _?): return (outcome, [.delete])
        case (let element?, nil): return (outcome, [.insert(element)])
        case (let element?, let row?):
            var steps: [RowStep<Element>] = element != row ? [.update(element)] : []
            if case .moved = change { steps.append(.rank) }
            return (outcome, steps)
        }
    }
}

/// The ranks a placement reads, and renumbering: each database adapter answers in its SQL.
package protocol StoredRanks {
    /// The rank of the row with the stored id `key`, if there is one.
    func rank(of key: String) throws -> Int64?
    /// The rank nearest `rank` of a row not in `excluded`: at or above it when `upward`, at or
    /// below it otherwise.
    func nearest(to rank: Int64, upward: Bool, excluding excluded: [String]) throws -> Int64?
    /// Gives every row a fresh rank, ``RowRank/gap`` apart, in list order (rare: O(*n*)).
    func renumber() throws
}

/// Where rows stand in a list: the one rule of order every database adapter asks.
///
/// Each row has a rank, an integer; rows are in rank order, and new ranks are spaced `gap` apart
/// so that an insert or a move writes one row.
package enum RowRank {
    /// The distance between ranks a list is numbered with.
    package static var gap: Int64 { 1 << 32 }

    /// A rank strictly between `low` and `high` (either may be open), or `nil` if there is none
    /// (then the adapter renumbers the rows, `gap` apart, and asks again).
    package static func between(_ low: Int64?, _ high: Int64?) -> Int64? {
        switch (low, high) {
        case (nil, nil): return 0
        case (let low?, nil):
            let (rank, overflow) = low.addingReportingOverflow(gap)
            return overflow ? nil : rank
        case (nil, let high?):
            let (rank, overflow) = high.subtractingReportingOverflow(gap)
            return overflow ? nil : rank
        case (let low?, let high?):
            // low <= high always; halving the distance cannot overflow.
            let distance = high / 2 - low / 2 + (high % 2 - low % 2) / 2
            return distance >= 1 && low + distance < high ? low + distance : nil
        }
    }
}

extension RowRank {
    /// The rank that puts the row `key` right after `predecessor` (or right before `successor`,
    /// if the predecessor is gone; at the front if it had none; at the end if both are gone),
    /// renumbering once if its neighbours have no room; `nil` if there is none even then.
    package static func placing(
        _ key: String, after predecessor: String?, before successor: String?,
        in ranks: some StoredRanks
    ) throws -> Int64? {
        for attempt in 0..<2 {
            let found: Int64?
            if let predecessor, let low = try ranks.rank(of: predecessor) {
                let high = try ranks.nearest(to: low, upward: true, excluding: [key, predecessor])
                found = between(low, high)
            } else if let successor, let high = try ranks.rank(of: successor) {
                let low = try ranks.nearest(to: high, upward: false, excluding: [key, successor])
                found = between(low, high)
            } else if predecessor == nil {
                found = between(nil, try ranks.nearest(to: .min, upward: true, excluding: [key]))
            } else {
                found = between(try ranks.nearest(to: .max, upward: false, excluding: [key]), nil)
            }
            if let found { return found }
            if attempt == 0 { try ranks.renumber() }
        }
        return nil
    }
}

extension RowWrite where Element: RowListElement {
    /// The stored id of the row the edit writes.
    package var key: String { Element.storedText(of: change.element.id) }

    /// The rank that puts the edit's row among its neighbours (``RowRank/placing(_:after:before:in:)``).
    ///
    /// - Throws: `PersistenceError.unwritable` naming `place` if there is no room even after
    ///   renumbering.
    package func rank(in ranks: some StoredRanks, place: String) throws -> Int64 {
        guard
            let rank = try RowRank.placing(
                key, after: predecessor.map(Element.storedText),
                before: successor.map(Element.storedText), in: ranks)
        else {
            throw PersistenceError.unwritable(
                path: place, reason: "no room for a rank after renumbering")
        }
        return rank
    }
}
