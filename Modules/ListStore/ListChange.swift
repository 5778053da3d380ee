public import MVCElements
public import MVCObservation

/// One fine-grained change to a list, carrying the values it is about, so that a list screen
/// updates one row from the change alone, without reading the store.
///
/// Positions are those of the list right after the change (for ``removed(_:at:)``, the position
/// the element had). Each change is keyed by the element it is about, so a screen showing one
/// element can subscribe to that element only.
public enum ListChange<Element: ListElement>: KeyedUpdate, Sendable, Equatable {
    /// This element was inserted at a position.
    case inserted(Element, at: Int)
    /// This element, which was at a position, was removed.
    case removed(Element, at: Int)
    /// This element moved from one position to another.
    case moved(Element, from: Int, to: Int)
    /// The element at a position was replaced by a new version of itself.
    case replaced(old: Element, new: Element, at: Int)

    /// The element the change is about, as it is after the change (as it was, if removed).
    public var element: Element {
        switch self {
        case .inserted(let element, _), .removed(let element, _), .moved(let element, _, _),
            .replaced(_, let element, _):
            element
        }
    }

    /// The id of the element the change is about.
    public var key: Element.ID { element.id }

    /// The change as a trace shows it: "“Louvre” moved from 2 to 0".
    public var summary: String {
        switch self {
        case .inserted(let element, let position):
            "“\(element.title)” inserted at \(position)"
        case .removed(let element, let position):
            "“\(element.title)” removed from \(position)"
        case .moved(let element, let source, let destination):
            "“\(element.title)” moved from \(source) to \(destination)"
        case .replaced(_, let element, let position):
            "“\(element.title)” updated at \(position)"
        }
    }
}
