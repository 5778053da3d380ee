public import MVCElements

/// Merges two versions of a list that grew apart from one base.
///
/// The versions are this process's (*ours*) and the one another process saved (*theirs*). Pure:
/// no I/O, no state.
///
/// Each element, by id, is decided by ``ElementMerge``, the rule every adapter asks (a database
/// asks it for one row). Elements deleted on their side and untouched here are named in a notice,
/// since the user sees a row go that they did not delete.
///
/// The order is the one rule for places: theirs, with every element this side moved or added
/// placed right after the element it follows here (at the top if it leads). A move is an edit of
/// an element's place, and the later one stands: of two moves of one element, the one being
/// merged in here (as a database's write places its row after its neighbour). Which elements a
/// side moved is what ``ListDifference`` finds: those outside the longest run that kept its order.
public enum ListMerge<Element: ListElement> {
    /// Merges `ours` and `theirs` against `base` (`nil` when there was no file to begin with).
    ///
    /// - Returns: The merged list and a sentence for each conflict.
    /// - Complexity: O(*n* log *n*) for *n* elements, plus O(*n*) per element one side added or
    ///   moved.
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
            let outcome = ElementMerge.resolve(
                base: baseByID[id], ours: oursByID[id], theirs: theirsByID[id])
            notices += outcome.notices
            if let element = outcome.element { merged[id] = element }
        }
        let deletedThere = ours.filter { element in
            merged[element.id] == nil && theirsByID[element.id] == nil
        }
        if !deletedThere.isEmpty {
            notices.append(MergeNotice.deletedThere(deletedThere.map(\.title)))
        }

        let oursOrder = ours.map(\.id).filter { merged[$0] != nil }
        let theirsOrder = theirs.map(\.id).filter { merged[$0] != nil }
        let movedHere = ListDifference<Element>.moved(from: base.map(\.id), to: oursOrder)
        let order = interleave(theirsOrder.filter { !movedHere.contains($0) }, with: oursOrder)
        return MergeResult(document: order.compactMap { merged[$0] }, notices: notices.sorted())
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
