public import MVCElements

/// The one rule for an element two processes changed from one base: every adapter asks it, for a
/// whole document (``ListMerge``) or for one row inside a database's write transaction.
///
/// *Ours* is this process's version, *theirs* the one another process stored (already on disk,
/// and acknowledged to whoever stored it), *base* the version both started from; `nil` means the
/// element is not there (never added, or deleted). Pure: no I/O, no state.
///
/// - Added on one side: kept. Deleted on one side and untouched on the other: deleted.
/// - Edited on one side only: that edit. Edited on both: field by field (``fieldwise(base:ours:theirs:)``).
/// - Deleted on one side, edited on the other: kept, with the edit, and told (an edit is never
///   thrown away silently).
/// - Stored on both sides with no base, differently: theirs, told.
/// - A result that breaks the element's rules is never kept: theirs is, told.
public enum ElementMerge<Element: ListElement> {
    /// What a merge of one element came to.
    public struct Outcome: Sendable, Equatable {
        /// The element as both sides should now have it; `nil` if it is deleted.
        public var element: Element?
        /// A sentence for each conflict, for the user.
        public var notices: [String]
    }

    /// Merges one element's `ours` and `theirs` against `base`.
    public static func resolve(base: Element?, ours: Element?, theirs: Element?) -> Outcome {
        switch (ours, theirs) {
        case (let ours?, let theirs?):
            if ours == theirs { return Outcome(element: ours, notices: []) }
            guard let base else {
                return Outcome(
                    element: theirs,
                    notices: [
                        "“\(theirs.title)” was saved here and in another process; the other process's version was kept"
                    ])
            }
            if ours == base { return Outcome(element: theirs, notices: []) }
            if theirs == base { return Outcome(element: ours, notices: []) }
            let (merged, notices) = fieldwise(base: base, ours: ours, theirs: theirs)
            guard let problem = merged.problems.first else {
                return Outcome(element: merged, notices: notices)
            }
            return Outcome(
                element: theirs,
                notices: notices + [
                    "“\(base.title)” was edited here and in another process, and the two edits together break a rule (\(problem)); the other process's version was kept"
                ])
        case (let ours?, nil):
            guard let base else { return Outcome(element: ours, notices: []) }  // added here
            if ours == base { return Outcome(element: nil, notices: []) }  // deleted there
            return Outcome(element: ours, notices: [MergeNotice.deletedThereEditedHere(ours.title)])
        case (nil, let theirs?):
            guard let base else { return Outcome(element: theirs, notices: []) }  // added there
            if theirs == base { return Outcome(element: nil, notices: []) }  // deleted here
            return Outcome(
                element: theirs, notices: [MergeNotice.deletedHereEditedThere(theirs.title)])
        case (nil, nil):
            return Outcome(element: nil, notices: [])
        }
    }

    /// The field rule, for an element both sides edited.
    ///
    /// The result is `theirs`, with each field only `ours` changed from `base` taken from `ours`;
    /// a field both changed to different values keeps theirs, and a notice says what ours was.
    /// The result is not checked against the element's rules.
    public static func fieldwise(base: Element, ours: Element, theirs: Element)
        -> (element: Element, notices: [String])
    {
        var result = theirs
        var notices: [String] = []
        for field in Element.fields {
            if field.isEqual(theirs, base) {
                field.copy(from: ours, to: &result)
            } else if !field.isEqual(ours, base) && !field.isEqual(ours, theirs) {
                notices.append(
                    MergeNotice.fieldEditedOnBothSides(
                        base.title, field: field.name, here: field.text(in: ours),
                        there: field.text(in: theirs)))
            }
        }
        return (result, notices)
    }
}

/// What a merge tells the user when the two sides' edits met, in words every adapter uses.
package enum MergeNotice {
    /// An element deleted in another process, edited here: kept.
    package static func deletedThereEditedHere(_ title: String) -> String {
        "“\(title)” was deleted in another process but edited here; it was kept"
    }

    /// Elements deleted in another process and untouched here: deleted, named up to three.
    package static func deletedThere(_ titles: [String]) -> String {
        let named = titles.prefix(3).map { "“\($0)”" }
        let rest = titles.count - named.count
        let list =
            rest > 0
            ? named.joined(separator: ", ") + " and \(rest) more"
            : named.count == 1
                ? named[0] : named.dropLast().joined(separator: ", ") + " and " + (named.last ?? "")
        return "\(list) \(titles.count == 1 ? "was" : "were") deleted in another process"
    }

    /// An element deleted here, edited in another process: kept.
    package static func deletedHereEditedThere(_ title: String) -> String {
        "“\(title)” was deleted here but edited in another process; it was kept"
    }

    /// One field changed on both sides to different values: the other process's is kept.
    package static func fieldEditedOnBothSides(
        _ title: String, field: String, here: String, there: String
    ) -> String {
        "“\(title)” had its \(field) changed here to “\(here)” and in another process to “\(there)”; the other process's was kept"
    }
}
