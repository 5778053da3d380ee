public import MVCModel

/// Why the store refused an edit; the list is unchanged when it throws.
public enum AttractionStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A position outside the list (positions count from 0 here; screens add 1).
    case positionOutOfRange(Int, count: Int)
    /// No attraction with this id is in the list (it was deleted meanwhile).
    case unknownAttraction(Attraction.ID)
    /// An attraction with this id is already in the list.
    case duplicateAttraction(Attraction.ID)
    /// Replacing an attraction with one whose id differs.
    case mismatchedID(expected: Attraction.ID, found: Attraction.ID)
    /// Undo with nothing to undo.
    case nothingToUndo
    /// Redo with nothing to redo.
    case nothingToRedo

    /// A sentence a user can act on.
    public var description: String {
        switch self {
        case .positionOutOfRange(let position, let count):
            count == 0
                ? "there is no attraction at position \(position + 1): the list is empty"
                : "there is no attraction at position \(position + 1): the list has \(count)"
        case .unknownAttraction:
            "that attraction is no longer in the list"
        case .duplicateAttraction:
            "that attraction is already in the list"
        case .mismatchedID:
            "an attraction can only be replaced by a new version of itself"
        case .nothingToUndo:
            "there is nothing to undo"
        case .nothingToRedo:
            "there is nothing to redo"
        }
    }
}
