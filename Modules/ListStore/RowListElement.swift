public import Foundation
public import MVCElements

/// An element a list store can keep as a row of a database table (SQLite's or PostgreSQL's):
/// one row per element, keyed by its id as text, one column per field of
/// ``/MVCElements/ListElement/fields`` (a new field's column is added at the next opening), holding
/// the value an editor shows, read back with the field's parse.
///
/// An id that is `LosslessStringConvertible` or a `UUID` needs nothing more; any other id says
/// how it is written as text and read back. Every database adapter asks this one protocol.
public protocol RowListElement: ListElement {
    /// What the database records it holds (`meta.kind`), and opening checks: a database of another
    /// kind is refused. Its identity, not its wording: by default ``/MVCElements/ListElement/pluralNoun``,
    /// but a type whose nouns may be reworded sets it once and keeps it, or rewording orphans
    /// every database it made.
    static var databaseKind: String { get }
    /// The text the database stores for `id`, read back by ``id(stored:)``.
    static func storedText(of id: ID) -> String
    /// The id stored as `text`; `nil` if it names none, or if `text` is not exactly what
    /// ``storedText(of:)`` writes for it (a row a later edit of that id would miss).
    static func id(stored text: String) -> ID?
    /// The list the rows `reading` hands over hold, decoded on the other cores while it reads,
    /// and the rows (from 1) that cannot be read or break a rule, and why.
    ///
    /// `reading` calls its argument with each ``RowBatch`` of rows, in list order. With
    /// `distinctIDs` (the database's primary key keeps each id once), the list is made with
    /// ``EditableList/init(distinctIDs:)``: its ids are indexed after it is shown, not before.
    ///
    /// Leave it to the default. It is a requirement only so that it is compiled for your type
    /// where the type conforms, not run through the type's conformances: that makes opening a
    /// long list several times faster.
    static func decodedRows(
        distinctIDs: Bool, reading: (_ hand: (consuming RowBatch) -> Void) throws -> Void
    ) rethrows -> (list: EditableList<Self>, problems: [(row: Int, reason: String)])
}

extension RowListElement {
    /// ``/MVCElements/ListElement/pluralNoun``.
    public static var databaseKind: String { pluralNoun }
}

extension RowListElement where ID: LosslessStringConvertible {
    /// The id's `description`.
    public static func storedText(of id: ID) -> String { id.description }
    /// The id whose `description` is `text`, exactly.
    public static func id(stored text: String) -> ID? {
        ID(text).flatMap { $0.description == text ? $0 : nil }
    }
}

extension RowListElement where ID == UUID {
    /// The UUID's `uuidString`.
    public static func storedText(of id: ID) -> String { id.uuidString }
    /// The UUID whose `uuidString` is `text`, exactly.
    public static func id(stored text: String) -> ID? {
        UUID(uuidString: text).flatMap { $0.uuidString == text ? $0 : nil }
    }
}

extension RowListElement {
    /// Row `row` of `batch` as an element, or why it cannot be taken in.
    @inlinable
    package static func decoded(
        row: Int, of batch: RowBatch, fields: ContiguousArray<ElementField<Self>>
    ) -> (element: Self?, problem: String?) {
        let key = batch.id(row)
        if !batch.mistyped.isEmpty, let reason = batch.mistyped[row] {
            return (nil, "\(noun) \(key): \(reason)")
        }
        // Only an id written exactly as this code writes it: later edits would miss the row.
        guard let id = Self.id(stored: key) else {
            let article = "aeiou".contains(noun.first ?? "x") ? "an" : "a"
            return (nil, "its id “\(key)” is not the id of \(article) \(noun), as written here")
        }
        var element = Self(blankWithID: id)
        for index in 0..<fields.count {
            guard let cell = batch.text(row, field: index) else { continue }
            guard let text = cell else {
                return (
                    nil,
                    "\(noun) \(key), field “\(fields[index].name)”: its text is not UTF-8 (another program wrote it), and would be saved altered"
                )
            }
            if let broken = fields[index].set(text, in: &element) {
                return (nil, "\(noun) \(key), field “\(fields[index].name)”: \(broken)")
            }
        }
        if let broken = element.problems.first {
            return (nil, "\(noun) \(key): \(broken)")
        }
        return (element, nil)
    }

    /// `elements`, read in list order with `problems` (each row's, from 1), without a second
    /// row of an id: each is told by its row, naming the row the id is first in.
    ///
    /// A table that does not keep each id once (its primary key dropped by another program)
    /// could hold two; the list shows one row an id, and an edit of it would change both.
    @inlinable
    package static func withoutRepeatedIDs(
        _ elements: [Self], _ problems: [(row: Int, reason: String)]
    ) -> (elements: [Self], problems: [(row: Int, reason: String)]) {
        var (firstRows, kept, repeated): ([ID: Int], [Self], [(row: Int, reason: String)]) = (
            [:], [], []
        )
        kept.reserveCapacity(elements.count)
        var (row, nextProblem) = (0, 0)
        for element in elements {
            // The row after the last, past the rows that are problems.
            row += 1
            while nextProblem < problems.count, problems[nextProblem].row == row {
                (row, nextProblem) = (row + 1, nextProblem + 1)
            }
            if let first = firstRows[element.id] {
                repeated.append(
                    (row, "\(noun) \(storedText(of: element.id)): its id is row \(first)'s too"))
            } else {
                firstRows[element.id] = row
                kept.append(element)
            }
        }
        guard !repeated.isEmpty else { return (elements, problems) }
        return (kept, (problems + repeated).sorted { $0.row < $1.row })
    }

    /// The reason an opening refuses a list with rows it cannot take in, if it has any: the
    /// first row and why, and the rows after it, by number.
    package static func refusal(_ problems: [(row: Int, reason: String)]) -> String? {
        guard let first = problems.first else { return nil }
        let others = problems.dropFirst().map(\.row)
        let more =
            switch others.count {
            case 0: ""
            case 1: " (and row \(others[0]))"
            case 2...10: " (and rows \(others.map(String.init).joined(separator: ", ")))"
            default:
                " (and \(others.count) more rows: \(others.prefix(10).map(String.init).joined(separator: ", "))…)"
            }
        return "row \(first.row): \(first.reason)\(more)"
    }
}
