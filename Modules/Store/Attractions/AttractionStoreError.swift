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
    /// The attraction breaks a rule of the model (an empty name, a control character...).
    case brokenRule(AttractionValidationError)
    /// Undo or redo of an edit whose attraction another process's save removed (or brought
    /// back); the edit, named by its label, was dropped from the history.
    case changedElsewhere(String)
    /// Undo with nothing to undo.
    case nothingToUndo
    /// Redo with nothing to redo.
    case nothingToRedo

    /// A sentence a user can act on.
    public var description: String {
        switch self {
        case .positionOutOfRange(let position, let count):
            // Shown counting from 1, in a wider type, so that even Int.max is shown, not trapped on.
            let shown = position < Int.max ? "\(position + 1)" : "\(UInt(position) + 1)"
            return count == 0
                ? "there is no attraction at position \(shown): the list is empty"
                : "there is no attraction at position \(shown): the list has \(count)"
        case .brokenRule(let problem):
            return problem.description
        case .changedElsewhere(let label):
            return "cannot undo or redo \(label): another process changed that attraction"
        case .unknownAttraction:
            return "that attraction is no longer in the list"
        case .duplicateAttraction:
            return "that attraction is already in the list"
        case .mismatchedID:
            return "an attraction can only be replaced by a new version of itself"
        case .nothingToUndo:
            return "there is nothing to undo"
        case .nothingToRedo:
            return "there is nothing to redo"
        }
    }
}
