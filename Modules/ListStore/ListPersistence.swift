public import MVCElements
public import MVCObservation

/// Where a ``ListStore`` keeps its list: the one thing the store knows about persistence.
///
/// The port carries both directions. Out: the store calls ``listChanged(_:by:)`` after each edit
/// it made. Back: the store shows ``saveStatus``, and takes in what the adapter hands the
/// ``ListInbox`` given by ``connect(to:)`` (another process's rows, list and notices); no adapter
/// holds the store. The JSON document adapter (MVCDocumentStore) rewrites one file after a burst of
/// edits; the database adapters write one row per edit. Screens never see which is behind it.
@MainActor
public protocol ListPersistence<Element>: AnyObject {
    /// The elements of the list it keeps.
    associatedtype Element: ListElement

    /// Where saving stands; a repeated failure is a new value.
    var saveStatus: ReadOnlyProperty<SaveStatus> { get }

    /// Told after the store applied `change`; `elements` is the whole list after it.
    func listChanged(_ elements: [Element], by change: ListChange<Element>)

    /// Told once, by the store it keeps, where to hand what arrives from elsewhere; it holds
    /// `inbox` weakly. By default it is ignored: a persistence that only writes needs none.
    func connect(to inbox: any ListInbox<Element>)
}

extension ListPersistence {
    /// Ignores `inbox`: nothing arrives from elsewhere.
    public func connect(to inbox: any ListInbox<Element>) {}
}
