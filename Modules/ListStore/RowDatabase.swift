package import MVCElements

/// One row another program changed, as a look found it.
package struct ChangedRow<Element: ListElement>: Sendable {
    /// The element the row holds; `nil` if it cannot be taken in (then `problem` says why).
    package var element: Element?
    package var problem: String?
    /// The ids of the rows right before it in the list, nearest first (a few: the first of them
    /// the store has is the one it goes after; none, at the top).
    package var predecessors: [Element.ID]

    package init(element: Element?, problem: String?, predecessors: [Element.ID]) {
        (self.element, self.problem, self.predecessors) = (element, problem, predecessors)
    }
}

/// What changed in a database after the last change the store has, and the mark to remember
/// once the store took it in.
package struct RowChanges<Element: ListElement, Mark: Sendable>: Sendable {
    /// The rows changed, in list order.
    package var rows: [ChangedRow<Element>] = []
    /// The rows deleted (by id).
    package var deleted: [Element.ID] = []
    /// The whole list and the rows that break a rule, when the changes alone could not be read:
    /// this process fell behind the tombstones kept, or most of the list changed.
    package var whole: (elements: [Element], problems: [String])?
    /// Where the next look starts, once these are taken in (the last change read, and whatever
    /// else tells the database's history apart).
    package var mark: Mark

    package init(mark: Mark) {
        self.mark = mark
    }
}

/// A list kept a row per element, as ``RowWorker`` asks it: the one thing an SQLite file and a
/// PostgreSQL table each do their own way.
///
/// Each write is a transaction of its own, merged with the stored row by ``ElementMerge``; each
/// look reads the rows and tombstones changed after the mark the store last took in.
package protocol RowDatabase<Element>: Actor {
    associatedtype Element: RowListElement
    associatedtype Mark: Sendable

    /// The list's short name, for traces ("write 1 row of …").
    nonisolated var shortName: String { get }
    /// Where the list is, for errors (never with a password).
    nonisolated var place: String { get }
    /// Who else writes the list, as a notice names them ("programs", "clients").
    nonisolated var others: String { get }
    /// How long after a failed look to look again; `nil` waits for the next poll.
    nonisolated var lookRetry: Duration? { get }

    /// Writes one edit durably; returns what to tell of other programs' edits it met, and
    /// whether the stored row now differs from the edit's (the next look brings it).
    func write(_ write: RowWrite<Element>) throws(PersistenceError) -> (
        notices: [String], differs: Bool
    )
    /// What other programs committed after the last mark taken in; `nil` if nothing.
    func look() -> Result<RowChanges<Element, Mark>?, PersistenceError>
    /// The store took in the changes up to `mark`.
    func tookIn(_ mark: Mark)
    /// The next look reads the whole list, whatever the counter says.
    func readWholeListNext()
    /// Closing began: writes from now on may take up to `patience` in all.
    func closingBegan(patience: Duration)
    /// Whether closing gives up on the queued edits after `error` (the reason, if so), or tries
    /// again, `deadlinePassed` telling whether its patience has run out.
    nonisolated func closingGivesUp(
        after error: PersistenceError, patience: Duration,
        deadlinePassed: Bool
    ) -> String?
    /// Lets go of the connection.
    func close()
}

extension RowDatabase {
    /// How many changed rows a look reads one by one; past that, reading the whole list is
    /// cheaper than placing each row.
    package static var rowsReadOneByOne: Int { 20_000 }
    /// How many rows before a changed row a look names, for placing it.
    package static var predecessorsNamed: Int { 4 }
}
