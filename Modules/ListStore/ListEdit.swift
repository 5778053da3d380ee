public import MVCElements

/// One undoable edit of a list, holding everything needed to apply it and to reverse it.
///
/// Edits find their element by id, not by position: an undo still reaches the right element after
/// the list changed under it, in this process or in another one whose save was merged in.
/// Positions are where an element goes (clamped to the list), never which one is meant.
public enum ListEdit<Element: ListElement>: Sendable, Equatable {
    /// Insert an element at a position (clamped to the list's bounds).
    case insert(Element, at: Int)
    /// Remove the element with this one's id; the position it had is kept to put it back.
    case remove(Element, at: Int)
    /// Move the element with an id from one position to another (clamped).
    case move(Element.ID, from: Int, to: Int)
    /// Replace the element with `old`'s id by a new version of it: the fields that differ
    /// between `old` and `new` are set, the others keep what the list has.
    case replace(old: Element, new: Element)

    /// The id of the element the edit is about.
    public var elementID: Element.ID {
        switch self {
        case .insert(let element, _), .remove(let element, _): element.id
        case .move(let id, _, _): id
        case .replace(_, let new): new.id
        }
    }

    /// What a menu calls the edit, naming its element `title`: "Delete “Louvre”".
    public func label(title: String) -> String {
        switch self {
        case .insert: "Add “\(title)”"
        case .remove: "Delete “\(title)”"
        case .move: "Move “\(title)”"
        case .replace: "Edit “\(title)”"
        }
    }

    /// The edit that undoes this one.
    public var inverse: ListEdit {
        switch self {
        case .insert(let element, let index): .remove(element, at: index)
        case .remove(let element, let index): .insert(element, at: index)
        case .move(let id, let from, let to): .move(id, from: to, to: from)
        case .replace(let old, let new): .replace(old: new, new: old)
        }
    }
}
