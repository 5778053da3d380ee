public import MVCElements
public import MVCObservation

/// What a ``ListStore`` publishes for each change: the change, with its values, and the labels
/// Undo and Redo have after it, so a screen updates from the update alone.
///
/// A change the store took in from another process's save is an update like any other: a
/// subscriber cannot tell, and need not.
public struct ListStoreUpdate<Element: ListElement>: KeyedUpdate, Sendable, Equatable {
    /// What changed in the list.
    public var change: ListChange<Element>
    /// What Undo would undo after the change ("Delete “Louvre”"), if anything.
    public var undoLabel: String?
    /// What Redo would redo after the change, if anything.
    public var redoLabel: String?

    /// Creates an update.
    public init(change: ListChange<Element>, undoLabel: String?, redoLabel: String?) {
        self.change = change
        self.undoLabel = undoLabel
        self.redoLabel = redoLabel
    }

    /// The id of the element the change is about.
    public var key: Element.ID { change.key }
}
