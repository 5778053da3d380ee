public import MVCElements

/// Where a ``ListPersistence`` hands what arrives from elsewhere: the port's other direction.
///
/// A store hands its edits out through ``ListPersistence/listChanged(_:by:)``; what comes back
/// (another process's rows or whole list, and sentences about conflicts it resolved) comes in
/// through this protocol, which ``ListStore`` adopts. An adapter is given its inbox once, by
/// ``ListPersistence/connect(to:)``, and knows nothing else of the store; a test hands an adapter
/// an inbox of its own to see what it delivers.
@MainActor
public protocol ListInbox<Element>: AnyObject {
    /// The elements of the list.
    associatedtype Element: ListElement

    /// The list as it stands here, in order.
    var elements: [Element] { get }

    /// Takes in rows another process committed, each placed after the first of its predecessors
    /// the list has, and the ids it deleted; `false` if a row could not be placed.
    func takeIn(changed: [(element: Element, predecessors: [Element.ID])], deleted: [Element.ID])
        -> Bool

    /// Merges in the whole list another process saved, against `base`; returns the list after,
    /// with this side's unsaved edits in it.
    func takeIn(base: [Element]?, fileVersion: [Element], notices: [String]) async -> [Element]

    /// Shows `message`, a sentence about a conflict resolved or a row that could not be read.
    func postNotice(_ message: String)

    /// Returns once the list's ids are indexed, if they are being indexed on another thread: an
    /// adapter waits for it before it hands over rows, which are placed by id (indexing a long
    /// list at once would hold the main actor). By default, at once.
    func finishIndexing() async
}

extension ListInbox {
    /// Returns at once: an inbox that indexes nothing elsewhere has nothing to wait for.
    public func finishIndexing() async {}
}

extension ListStore: ListInbox {}
