public import MVCModel
public import MVCObservation

/// What an ``AttractionStore`` publishes for each change: the change, with its values, and the
/// labels Undo and Redo have after it, so a screen updates from the update alone.
///
/// A change the store took in from another process's save is an update like any other: a
/// subscriber cannot tell, and need not.
public struct AttractionStoreUpdate: KeyedUpdate, Sendable, Equatable {
    /// What changed in the list.
    public var change: AttractionListChange
    /// What Undo would undo after the change ("Delete “Louvre”"), if anything.
    public var undoLabel: String?
    /// What Redo would redo after the change, if anything.
    public var redoLabel: String?

    /// Creates an update.
    public init(change: AttractionListChange, undoLabel: String?, redoLabel: String?) {
        self.change = change
        self.undoLabel = undoLabel
        self.redoLabel = redoLabel
    }

    /// The id of the attraction the change is about.
    public var key: Attraction.ID { change.key }
}
