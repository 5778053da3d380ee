public import MVCElements

/// Why a store refused an edit; the list is unchanged when it throws.
public enum ListStoreError<Element: ListElement>: Error, Sendable, Equatable,
    CustomStringConvertible
{
    /// A position outside the list (positions count from 0 here; screens add 1).
    case positionOutOfRange(Int, count: Int)
    /// No element with this id is in the list (it was deleted meanwhile).
    case unknownElement(Element.ID)
    /// An element with this id is already in the list.
    case duplicateElement(Element.ID)
    /// Replacing an element with one whose id differs.
    case mismatchedID(expected: Element.ID, found: Element.ID)
    /// The element breaks a rule of the model (for an attraction: an empty name, a control
    /// character...).
    case brokenRule(Element.Problem)
    /// Undo or redo of an edit whose element another process's save removed (or brought back);
    /// the edit, named by its label, was dropped from the history.
    case changedElsewhere(String)
    /// Undo with nothing to undo.
    case nothingToUndo
    /// Redo with nothing to redo.
    case nothingToRedo

    /// A sentence a user can act on.
    public var description: String {
        let noun = Element.noun
        switch self {
        case .positionOutOfRange(let position, let count):
            // Shown counting from 1, in a wider type, so that even Int.max is shown, not trapped on.
            let shown = position < Int.max ? "\(position + 1)" : "\(UInt(position) + 1)"
            return count == 0
                ? "there is no \(noun) at position \(shown): the list is empty"
                : "there is no \(noun) at position \(shown): the list has \(count)"
        case .brokenRule(let problem):
            return problem.description
        case .changedElsewhere(let label):
            return "cannot undo or redo \(label): another process changed that \(noun)"
        case .unknownElement:
            return "that \(noun) is no longer in the list"
        case .duplicateElement:
            return "that \(noun) is already in the list"
        case .mismatchedID:
            return "only a new version of the same \(noun) can replace it"
        case .nothingToUndo:
            return "there is nothing to undo"
        case .nothingToRedo:
            return "there is nothing to redo"
        }
    }
}
