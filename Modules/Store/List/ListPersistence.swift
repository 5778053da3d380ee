public import MVCModel
public import MVCObservation

/// Where a ``ListStore`` sends its edits to keep them: the one thing the store knows about
/// persistence.
///
/// The store calls ``listChanged(_:by:)`` after every edit it applied (its own, an undo, a redo,
/// or one taken in from another process's save), and shows ``saveStatus`` to its screens. How the
/// edit reaches the disk is the adapter's business: the JSON document adapter (MVCPersistence)
/// rewrites one file after a burst of edits; the SQLite adapter writes one row per edit.
/// Screens and presenters never see which one is behind the store.
@MainActor
public protocol ListPersistence<Element>: AnyObject {
    /// The elements of the list it keeps.
    associatedtype Element: ListElement

    /// Where saving stands; a repeated failure is a new value.
    var saveStatus: ReadOnlyProperty<SaveStatus> { get }

    /// Told after the store applied `change`; `elements` is the whole list after it.
    func listChanged(_ elements: [Element], by change: ListChange<Element>)
}
