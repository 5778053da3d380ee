import Dispatch
import Foundation
public import MVCElements

/// Rows a database adapter read, handed to ``RowListElement/decodedRows(distinctIDs:reading:)`` a batch at a
/// time, so the rows read so far are decoded while the next are read.
///
/// Row *i* of the batch is `ids[i]` with the `fields.count` texts of `texts` from
/// `i * fields.count` (`nil`: the field keeps its default).
public struct RowBatch: Sendable {
    /// Each row's id, as stored.
    public var ids: [String] = []
    /// Each row's field texts, `fields.count` per row.
    public var texts: [String?] = []
    /// The rows (from 0, in this batch) a database could not even hand over as text, and why.
    public var mistyped: [Int: String] = [:]

    /// An empty batch.
    public init() {}

    /// An empty batch, with room for `capacity` rows of `fields` texts.
    package init(fields: Int) {
        ids.reserveCapacity(Self.capacity)
        texts.reserveCapacity(Self.capacity * fields)
    }

    /// The rows a batch holds before it is handed over: enough to keep a core busy for a few
    /// milliseconds, few enough that the rows' text is never all held at once.
    package static var capacity: Int { 20_000 }

    /// Whether the batch holds `capacity` rows, and is to be handed over.
    package var isFull: Bool { ids.count >= Self.capacity }
}

extension RowListElement {
    /// The list the batches `reading` hands over hold, and the rows that cannot be read, and
    /// why: see the requirement.
    @inlinable
    public static func decodedRows(
        distinctIDs: Bool, reading: (_ hand: (consuming RowBatch) -> Void) throws -> Void
    ) rethrows -> (list: EditableList<Self>, problems: [(row: Int, reason: String)]) {
        let decoder = BatchDecoder<Self>()
        defer { decoder.waitForAll() }
        let fields = Self.fields
        var rows = 0
        try reading { batch in
            let (batch, first) = (copy batch, rows)
            precondition(
                batch.texts.count == batch.ids.count * fields.count,
                "a RowBatch of \(batch.ids.count) rows holds \(batch.texts.count) texts, not \(fields.count) a row"
            )
            rows += batch.ids.count
            decoder.run { BatchDecoder.decoded(batch, first: first) }
        }
        let (elements, problems) = decoder.joined()
        return (
            distinctIDs ? EditableList(distinctIDs: elements) : EditableList(elements), problems
        )
    }
}

/// Decodes the batches it is handed on other threads while the next are read, at most one more
/// than the cores at once (a reader faster than the decoding waits, rather than holding every
/// row's text), and joins the parts in order as they are decoded: the list is whole soon after
/// the last batch, not a copy of every part later.
@usableFromInline
final class BatchDecoder<Element: RowListElement>: @unchecked Sendable {
    @usableFromInline typealias Part = (
        elements: [Element], problems: [(row: Int, reason: String)]
    )

    private let running = DispatchGroup()
    private let room = DispatchSemaphore(value: ProcessInfo.processInfo.activeProcessorCount + 1)
    private let lock = NSLock()
    /// The parts decoded but not joined yet, by batch (guarded by `lock`).
    private var parts: [Int: Part] = [:]
    /// The parts joined so far, in order, and the next batch to join (guarded by `lock`).
    private var whole: Part = ([], [])
    private var nextToJoin = 0
    /// The batches handed over so far (used on the reading thread only).
    private var batches = 0

    @usableFromInline init() {}

    /// Runs `decode` on another thread once there is room, and keeps its part.
    @usableFromInline
    func run(_ decode: @escaping @Sendable () -> Part) {
        room.wait()
        let slot = batches
        batches += 1
        DispatchQueue.global().async(group: running) { [self] in
            let part = decode()
            lock.withLock {
                parts[slot] = part
                // Each part is freed once joined: the list is not held twice.
                while let next = parts.removeValue(forKey: nextToJoin) {
                    whole.elements += next.elements
                    whole.problems += next.problems
                    nextToJoin += 1
                }
            }
            room.signal()
        }
    }

    @usableFromInline
    func waitForAll() { running.wait() }

    /// Once every part is decoded, the list they make, in order, and the rows that could not be
    /// taken in.
    @usableFromInline
    func joined() -> Part {
        waitForAll()
        return lock.withLock {
            defer { whole = ([], []) }
            return whole
        }
    }

    /// The elements of `batch`, whose first row is row `first` of the list (from 0), and the
    /// rows (from 1) that could not be read or break a rule, and why.
    @inlinable
    static func decoded(_ batch: RowBatch, first: Int) -> Part {
        let fields = ContiguousArray(Element.fields)
        var part: Part = ([], [])
        part.elements.reserveCapacity(batch.ids.count)
        for row in batch.ids.indices {
            switch Element.decoded(row: row, of: batch, fields: fields) {
            case (let element?, _): part.elements.append(element)
            case (nil, let problem): part.problems.append((first + row + 1, problem ?? ""))
            }
        }
        return part
    }
}
