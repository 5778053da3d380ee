public import MVCModel

/// Merges two versions of a list that grew apart from one base.
///
/// The versions are this process's (*ours*) and the one another process saved (*theirs*). Pure:
/// no I/O, no state.
///
/// The rules, decided per element, by id:
/// - Added on one side: kept. Deleted on one side and untouched on the other: deleted.
/// - Edited on one side only: that edit. Edited on both sides: field by field (over
///   `Element.fields`), each side's edit of a field it alone changed is kept; a field both sides
///   changed differently takes *theirs* (already on disk, and acknowledged to whoever saved it),
///   and a notice names the field and both values.
/// - Deleted on one side and edited on the other: kept, with the edit, and a notice (an edit is
///   never thrown away silently).
/// - Deleted on their side and untouched here: deleted, and a notice names it, since the user
///   sees a row go that they did not delete.
///
/// The order: if only one side reordered the elements both had, its order is kept; if both did,
/// theirs is (with a notice). Elements that only the other side has are then placed right after
/// the element they follow on their side (at the top if they lead it).
public enum ListMerge<Element: ListElement> {
    /// Merges `ours` and `theirs` against `base` (`nil` when there was no file to begin with).
    ///
    /// - Returns: The merged list and a sentence for each conflict.
    /// - Complexity: O(*n*) for *n* elements, plus O(*n*) per element one side added.
    public static func merge(base: [Element]?, ours: [Element], theirs: [Element])
        -> MergeResult<[Element]>
    {
        // Nothing changed here since the base (the usual case): the merge is theirs, as the rules
        // below make it, unless one of theirs has an id twice.
        if let base, ours == base {
            let theirIDs = Set(theirs.lazy.map(\.id))
            if theirIDs.count == theirs.count {
                let deleted = base.filter { !theirIDs.contains($0.id) }.map(\.title)
                return MergeResult(
                    document: theirs,
                    notices: deleted.isEmpty ? [] : [MergeNotice.deletedThere(deleted)])
            }
        }
        let base = base ?? []
        let baseByID = Dictionary(base.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let oursByID = Dictionary(ours.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let theirsByID = Dictionary(
            theirs.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var notices: [String] = []
        var merged: [Element.ID: Element] = [:]

        for id in Set(oursByID.keys).union(theirsByID.keys) {
            let resolved = resolve(
                base: baseByID[id], ours: oursByID[id], theirs: theirsByID[id], notices: &notices)
            if let resolved { merged[id] = resolved }
        }
        let deletedThere = ours.filter { element in
            merged[element.id] == nil && theirsByID[element.id] == nil
        }
        if !deletedThere.isEmpty {
            notices.append(MergeNotice.deletedThere(deletedThere.map(\.title)))
        }

        let oursOrder = ours.map(\.id).filter { merged[$0] != nil }
        let theirsOrder = theirs.map(\.id).filter { merged[$0] != nil }
        let baseOrder = base.map(\.id)
        let oursReordered = reordered(oursOrder, comparedWith: baseOrder)
        let theirsReordered = reordered(theirsOrder, comparedWith: baseOrder)
        if oursReordered && theirsReordered {
            notices.append(
                "the list was reordered here and in another process; the other process's order was kept"
            )
        }
        let (primary, secondary) =
            oursReordered && !theirsReordered
            ? (oursOrder, theirsOrder) : (theirsOrder, oursOrder)
        let order = interleave(primary, with: secondary)
        return MergeResult(document: order.compactMap { merged[$0] }, notices: notices.sorted())
    }

    /// The merged version of one element, or `nil` if it is deleted.
    private static func resolve(
        base: Element?, ours: Element?, theirs: Element?, notices: inout [String]
    ) -> Element? {
        switch (ours, theirs) {
        case (let ours?, let theirs?):
            if ours == theirs { return ours }
            guard let base else {
                notices.append(
                    "“\(theirs.title)” was saved here and in another process; the other process's version was kept"
                )
                return theirs
            }
            if ours == base { return theirs }
            if theirs == base { return ours }
            return mergeFields(base: base, ours: ours, theirs: theirs, notices: &notices)
        case (let ours?, nil):
            guard let base else { return ours }  // added here
            if ours == base { return nil }  // deleted there, untouched here
            notices.append(MergeNotice.deletedThereEditedHere(ours.title))
            return ours
        case (nil, let theirs?):
            guard let base else { return theirs }  // added there
            if theirs == base { return nil }  // deleted here, untouched there
            notices.append(MergeNotice.deletedHereEditedThere(theirs.title))
            return theirs
        case (nil, nil):
            return nil
        }
    }

    /// Merges one element's fields, keeping each side's edits.
    ///
    /// The result is `theirs`, with each field only `ours` changed taken from `ours`; a field both
    /// changed to different values keeps theirs, and a notice says what yours was. A result that
    /// breaks the element's rules (two fields that must agree, each changed on one side) is not
    /// kept: theirs is, with a notice.
    private static func mergeFields(
        base: Element, ours: Element, theirs: Element, notices: inout [String]
    ) -> Element {
        let result = fieldwise(base: base, ours: ours, theirs: theirs, notices: &notices)
        guard let problem = result.problems.first else { return result }
        notices.append(
            "“\(base.title)” was edited here and in another process, and the two edits together break a rule (\(problem)); the other process's version was kept"
        )
        return theirs
    }

    private static func fieldwise(
        base: Element, ours: Element, theirs: Element, notices: inout [String]
    ) -> Element {
        var result = theirs
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
        return result
    }

    /// Whether `order` lists the ids it shares with `base` in another order than `base` does.
    private static func reordered(_ order: [Element.ID], comparedWith base: [Element.ID])
        -> Bool
    {
        let shared = Set(order).intersection(base)
        return order.filter(shared.contains) != base.filter(shared.contains)
    }

    /// `primary`, with each id that only `secondary` has placed after the id it follows there.
    private static func interleave(_ primary: [Element.ID], with secondary: [Element.ID])
        -> [Element.ID]
    {
        var result = primary
        var placed = Set(primary)
        var previous: Element.ID?
        for id in secondary {
            if !placed.contains(id) {
                let position = previous.flatMap { result.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
                result.insert(id, at: position)
                placed.insert(id)
            }
            previous = id
        }
        return result
    }
}

/// The result of merging a process's version of a document with the version in the file.
public struct MergeResult<Document: Sendable>: Sendable {
    /// The document with both sides' changes.
    public var document: Document
    /// What the user should know about the merge, each a sentence.
    ///
    /// Conflicts and how they were resolved. Empty when the two sides changed different things.
    public var notices: [String]

    /// Creates a merge result.
    public init(document: Document, notices: [String] = []) {
        self.document = document
        self.notices = notices
    }
}

/// What a merge tells the user when the two sides' edits met, in words every format uses: the
/// JSON document's three-way merge, and the SQLite adapter's write, which applies the same rules
/// row by row.
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
