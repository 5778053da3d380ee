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
            guard let text = batch.text(row, field: index) else { continue }
            if let broken = fields[index].set(text, in: &element) {
                return (nil, "\(noun) \(key), field “\(fields[index].name)”: \(broken)")
            }
        }
        if let broken = element.problems.first {
            return (nil, "\(noun) \(key): \(broken)")
        }
        return (element, nil)
    }
}
