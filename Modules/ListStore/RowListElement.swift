import Dispatch
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
    /// The id stored as `text`, or `nil` if it names none.
    static func id(stored text: String) -> ID?
    /// The list rows hold, decoded on every core, and the rows (from 1) that cannot be read or
    /// break a rule, and why.
    ///
    /// Row *i* is `ids[i]` with the `fields.count` texts of `texts` from `i * fields.count`;
    /// `mistyped` names the rows a database could not even hand over as text, and why.
    ///
    /// Leave it to the default. It is a requirement only so that it is compiled for your type
    /// where the type conforms, not run through the type's conformances: that makes opening a
    /// long list several times faster.
    static func decodedRows(
        ids: consuming [String], texts: consuming [String?], mistyped: [Int: String]
    ) -> (list: EditableList<Self>, problems: [(row: Int, reason: String)])
}

extension RowListElement {
    /// ``/MVCElements/ListElement/pluralNoun``.
    public static var databaseKind: String { pluralNoun }
}

extension RowListElement where ID: LosslessStringConvertible {
    /// The id's `description`.
    public static func storedText(of id: ID) -> String { id.description }
    /// The id whose `description` is `text`.
    public static func id(stored text: String) -> ID? { ID(text) }
}

extension RowListElement where ID == UUID {
    /// The UUID's `uuidString`.
    public static func storedText(of id: ID) -> String { id.uuidString }
    /// The UUID `text` spells.
    public static func id(stored text: String) -> ID? { UUID(uuidString: text) }
}

extension RowListElement {
    /// The element a row's id and its `fields.count` texts from `start` describe, or `nil` with
    /// `problem` set (`texts` is not sliced: a slice costs a retain per row).
    @inlinable
    package static func decoded(
        key: String, texts: [String?], from start: Int,
        fields: ContiguousArray<ElementField<Self>>, problem: inout String?
    ) -> Self? {
        // Written exactly as this code writes ids, or later edits would miss the row.
        guard let id = Self.id(stored: key), storedText(of: id) == key else {
            let article = "aeiou".contains(noun.first ?? "x") ? "an" : "a"
            problem = "its id “\(key)” is not the id of \(article) \(noun), as written here"
            return nil
        }
        var element = Self(blankWithID: id)
        for index in 0..<fields.count {
            guard let text = texts[start + index] else { continue }
            if let broken = fields[index].set(text, in: &element) {
                problem = "\(noun) \(key), field “\(fields[index].name)”: \(broken)"
                return nil
            }
        }
        if let broken = element.problems.first {
            problem = "\(noun) \(key): \(broken)"
            return nil
        }
        return element
    }
}

extension RowListElement {
    /// The list rows hold, and the rows that cannot be read, and why: see the requirement.
    @inlinable
    public static func decodedRows(
        ids: consuming [String], texts: consuming [String?], mistyped: [Int: String]
    ) -> (list: EditableList<Self>, problems: [(row: Int, reason: String)]) {
        let (elements, problems) = decodedOnEveryCore(ids: ids, texts: texts, mistyped: mistyped)
        // The rows' texts are freed before the ids are indexed: a million rows' worth less at once.
        _ = consume ids
        _ = consume texts
        return (EditableList(elements), problems)
    }

    /// The elements rows hold, decoded on every core while the calling thread waits, and the
    /// rows that could not be read or break a rule (see ``decodedRows(ids:texts:mistyped:)``).
    @inlinable
    package static func decodedOnEveryCore(
        ids: [String], texts: [String?], mistyped: [Int: String]
    ) -> (elements: [Self], problems: [(row: Int, reason: String)]) {
        let count = ids.count
        let chunks = max(1, min(64, count / 20_000))
        var parts = Array(repeating: ([Self](), [(row: Int, reason: String)]()), count: chunks)
        parts.withUnsafeMutableBufferPointer { buffer in
            // Safe: each slot is written by one thread, and read once all have finished.
            nonisolated(unsafe) let slots = buffer
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                let fields = ContiguousArray(fields)
                let range = (count * chunk / chunks)..<(count * (chunk + 1) / chunks)
                var elements: [Self] = []
                elements.reserveCapacity(range.count)
                var problems: [(row: Int, reason: String)] = []
                var problem: String?
                for row in range {
                    if !mistyped.isEmpty, let reason = mistyped[row] {
                        problems.append((row + 1, "\(noun) \(ids[row]): \(reason)"))
                    } else if let element = decoded(
                        key: ids[row], texts: texts, from: row * fields.count, fields: fields,
                        problem: &problem)
                    {
                        elements.append(element)
                    } else {
                        problems.append((row + 1, problem ?? "it cannot be read"))
                    }
                }
                slots[chunk] = (elements, problems)
            }
        }
        var elements: [Self] = []
        elements.reserveCapacity(count)
        var problems: [(row: Int, reason: String)] = []
        // Each part is freed once copied: the list is not held twice.
        for index in parts.indices {
            elements += parts[index].0
            problems += parts[index].1
            parts[index] = ([], [])
        }
        return (elements, problems)
    }
}
