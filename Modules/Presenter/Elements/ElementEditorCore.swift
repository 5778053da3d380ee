public import MVCElements

/// The detail editor's decisions, as a value: what each event does to the editing state, and
/// which effects the ``ElementEditorPresenter`` must then run.
///
/// It holds no delegate and calls nothing; the presenter talks to the delegate and feeds the
/// answer back as an event. So every decision can be tested with plain values:
///
/// ```swift
/// var core = ElementEditorCore(editing: Attraction(name: "Louvre"))
/// core.handle(.fieldChanged("name", to: "Orsay"))   // []
/// core.handle(.saveTapped)                          // [.askDelegateToSave(Orsay)]
/// core.handle(.delegateAccepted)                    // [.releaseDelegate]
/// core.viewState.phase                              // .saved
/// ```
///
/// **Every state × event is decided.** While editing, field changes update the draft and its
/// messages; Save either shows the draft's first problem or asks the delegate; Cancel ends the
/// edit. While the delegate is being asked, the only events that can arrive are its answer (the
/// delegate is called synchronously); anything else is ignored. Once saved or cancelled, every
/// event is ignored: a finished edit never changes again. A delegate answer that arrives while
/// no question is open is ignored too.
public struct ElementEditorCore<Element: ListElement>: Equatable, Sendable {
    /// Something that happened to the editor: an intent of the user, or the delegate's answer.
    public enum Event: Equatable, Sendable {
        /// The user changed the text of the field with this name (one of `Element.fields`).
        case fieldChanged(String, to: String)
        /// The user pressed Save.
        case saveTapped
        /// The user pressed Cancel.
        case cancelTapped
        /// The delegate saved the element it was asked to save.
        case delegateAccepted
        /// The delegate refused to save; the message says why.
        case delegateRefused(String)
    }

    /// What the presenter must do after a transition.
    public enum Effect: Equatable, Sendable {
        /// Hand `element` to the delegate's `saveElement`, and send its answer back.
        case askDelegateToSave(Element)
        /// Call the delegate's `cancelEditing`.
        case tellDelegateCancelled
        /// Let the delegate go: the edit is over.
        case releaseDelegate
    }

    /// Where the edit stands, beyond what the view shows.
    enum Stage: Equatable, Sendable {
        case editing
        case askingDelegate
        case finished
    }

    /// What the editor shows.
    public private(set) var viewState: ElementEditorViewState
    /// The fields as typed, and the element they came from: the draft is kept, not rebuilt from
    /// the view-state, so nothing the view-state does not hold is lost.
    private var draft: ElementDraft<Element>
    private var stage = Stage.editing

    /// Starts editing `element`: its fields, their messages, whether Save is enabled.
    ///
    /// - Parameter element: The element to edit (a blank one, with a fresh id, to create one).
    public init(editing element: Element) {
        self.draft = ElementDraft(editing: element)
        self.viewState = Self.viewState(for: draft)
    }

    /// Whether the edit is still open (not yet saved or cancelled).
    public var isEditing: Bool { stage != .finished }

    /// Applies `event` and returns the effects to run, in order.
    ///
    /// - Parameter event: What happened.
    /// - Returns: The effects the presenter must run; empty when the event changes nothing else.
    @discardableResult
    public mutating func handle(_ event: Event) -> [Effect] {
        switch (stage, event) {
        case (.editing, .fieldChanged(let name, let text)):
            // A field the model does not describe is not on the screen: nothing to change.
            guard draft.setText(text, ofField: name) else { return [] }
            // A new draft is a new question: the last Save's refusal no longer applies.
            viewState = Self.viewState(for: draft)
            return []
        case (.editing, .saveTapped):
            switch draft.validated() {
            case .success(let element):
                stage = .askingDelegate
                return [.askDelegateToSave(element)]
            case .failure(let problem):
                viewState.saveError = problem.description
                return []
            }
        case (.editing, .cancelTapped):
            stage = .finished
            viewState.phase = .cancelled
            return [.tellDelegateCancelled, .releaseDelegate]
        case (.askingDelegate, .delegateAccepted):
            stage = .finished
            viewState.saveError = nil
            viewState.phase = .saved
            return [.releaseDelegate]
        case (.askingDelegate, .delegateRefused(let message)):
            stage = .editing
            viewState.saveError = message
            return []
        case (.editing, .delegateAccepted), (.editing, .delegateRefused):
            // No question is open: an answer nobody asked for changes nothing.
            return []
        case (.askingDelegate, .fieldChanged), (.askingDelegate, .saveTapped),
            (.askingDelegate, .cancelTapped):
            // The delegate is answering; the user's next intent comes after its answer.
            return []
        case (.finished, _):
            // Saved or cancelled: a finished edit never changes again.
            return []
        }
    }

    /// The editing view-state for `draft`: its fields, their problems, whether it can be saved.
    private static func viewState(for draft: ElementDraft<Element>) -> ElementEditorViewState {
        ElementEditorViewState(
            fields: draft.fields.map {
                .init(name: $0.name, text: $0.text, message: $0.problems.first?.description)
            },
            isSaveEnabled: draft.problems.isEmpty
        )
    }
}
