public import MVCElements
import MVCListStore

/// Why an editor's delegate could not keep an element; the editor shows it and stays open.
///
/// The editor protocol owns this type, so an editor (and a delegate written for another store)
/// never needs the store's error type: a delegate says what went wrong in the editor's terms.
public enum ElementEditorError<Element: ListElement>: Error, Sendable, Equatable,
    CustomStringConvertible
{
    /// The element being edited is gone: deleted meanwhile, here or in another process.
    case elementGone
    /// The new element was saved already (its id is listed).
    case alreadySaved
    /// The element breaks a rule of the model.
    case brokenRule(Element.Problem)
    /// The store refused for another reason, given as a sentence.
    case refused(String)

    /// A sentence a user can act on.
    public var description: String {
        switch self {
        case .elementGone: "that \(Element.noun) is no longer in the list"
        case .alreadySaved: "that \(Element.noun) is already in the list"
        case .brokenRule(let problem): problem.description
        case .refused(let reason): reason
        }
    }
}

extension ElementEditorError {
    /// The editor's view of a store's refusal.
    init(_ error: ListStoreError<Element>) {
        switch error {
        case .unknownElement: self = .elementGone
        case .duplicateElement: self = .alreadySaved
        case .brokenRule(let problem): self = .brokenRule(problem)
        case .positionOutOfRange, .mismatchedID, .changedElsewhere, .nothingToUndo, .nothingToRedo:
            self = .refused(error.description)
        }
    }
}
