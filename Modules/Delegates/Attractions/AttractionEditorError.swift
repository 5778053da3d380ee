public import MVCModel
import MVCStore

/// Why an editor's delegate could not keep an attraction; the editor shows it and stays open.
///
/// The editor protocol owns this type, so an editor (and a delegate written for another store)
/// never needs the store's error type: a delegate says what went wrong in the editor's terms.
public enum AttractionEditorError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The attraction being edited is gone: deleted meanwhile, here or in another process.
    case attractionGone
    /// The new attraction was saved already (its id is listed).
    case alreadySaved
    /// The attraction breaks a rule of the model.
    case brokenRule(AttractionValidationError)
    /// The store refused for another reason, given as a sentence.
    case refused(String)

    /// A sentence a user can act on.
    public var description: String {
        switch self {
        case .attractionGone: "that attraction is no longer in the list"
        case .alreadySaved: "that attraction is already in the list"
        case .brokenRule(let problem): problem.description
        case .refused(let reason): reason
        }
    }
}

extension AttractionEditorError {
    /// The editor's view of a store's refusal.
    init(_ error: AttractionStoreError) {
        switch error {
        case .unknownElement: self = .attractionGone
        case .duplicateElement: self = .alreadySaved
        case .brokenRule(let problem): self = .brokenRule(problem)
        case .positionOutOfRange, .mismatchedID, .changedElsewhere, .nothingToUndo, .nothingToRedo:
            self = .refused(error.description)
        }
    }
}
