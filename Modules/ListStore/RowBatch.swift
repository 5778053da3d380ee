import Dispatch
import Foundation
public import MVCElements

/// Rows a database adapter read, handed to ``RowListElement/decodedRows(distinctIDs:reading:)`` a batch at a
/// time, so the rows read so far are decoded while the next are read.
///
/// A row is its id's text and then one text per described field (`nil`: the field keeps its
/// default). The texts are kept as their UTF-8 bytes, one after another, and become strings
/// only where they are decoded: the thread that reads rows copies bytes, and each string is
/// made, and freed if it is not kept, on the thread that decodes it.
///
/// An adapter of your own makes a batch with ``init(fields:rows:)``, appends each row's id and
/// then its fields' texts with ``append(_:)-(UnsafeBufferPointer<UInt8>?)`` or
/// ``append(_:)-(String?)``, and hands it over once ``isFull``.
public struct RowBatch: Sendable {
    /// Every cell's UTF-8 bytes, one after another, row after row.
    private var bytes: [UInt8] = []
    /// Where each cell ends in `bytes`, and whether it is `NULL`.
    private var cells: [(end: Int, isNull: Bool)] = []
    /// The cells in a row: the id and each field.
    private let width: Int
    /// The rows (from 0, in this batch) a database could not even hand over as text, and why:
    /// set before the row's cells are appended (at ``count``), each is told, never taken in.
    public var mistyped: [Int: String] = [:]

    /// An empty batch of rows with `fields` texts each, with room for `rows` rows.
    public init(fields: Int, rows: Int = 1) {
        width = fields + 1
        cells.reserveCapacity(rows * width)
        // Room for short texts; a batch of longer ones grows once or twice.
        bytes.reserveCapacity(rows * width * 24)
    }

    /// The rows a batch holds before it is handed over: enough to keep a core busy for a few
    /// milliseconds, few enough that the rows' text is never all held at once.
    public static var capacity: Int { 20_000 }

    /// The rows the batch holds (a row being appended counts once its id is).
    public var count: Int { (cells.count + width - 1) / width }

    /// Whether the batch holds `capacity` rows, or 32 MB of text, and is to be handed over.
    public var isFull: Bool { cells.count >= Self.capacity * width || bytes.count >= 1 << 25 }

    /// Adds the next cell (a row's id, then its fields in order): `text`'s bytes, or `NULL`.
    public mutating func append(_ text: UnsafeBufferPointer<UInt8>?) {
        if let text { bytes.append(contentsOf: text) }
        cells.append((bytes.count, text == nil))
    }

    /// Adds the next cell from a string, or `NULL`.
    public mutating func append(_ text: String?) {
        guard var text else { return append(nil as UnsafeBufferPointer<UInt8>?) }
        text.withUTF8 { append($0) }
    }

    /// Row `row`'s id as text (bytes that are not UTF-8 shown as U+FFFD), or `""` if it has none.
    @usableFromInline package func id(_ row: Int) -> String {
        withCell(row, 0) { $0.map { String(decoding: $0, as: UTF8.self) } } ?? ""
    }

    /// Row `row`'s text for field `field` (from 0): `nil` if it is `NULL`, `.some(nil)` if its
    /// bytes are not UTF-8 (another program's; read with U+FFFD, an edit would store it altered).
    @usableFromInline package func text(_ row: Int, field: Int) -> String?? {
        withCell(row, field + 1) { cell in
            cell.map { bytes in
                // A repair changes the bytes, so the text is theirs only if it reads back as
                // they are (`String(validating:)` took a third more of an opening's time).
                var text = String(decoding: bytes, as: UTF8.self)
                let isExact = text.withUTF8 { read in
                    guard read.count == bytes.count, let start = read.baseAddress,
                        let original = bytes.baseAddress
                    else { return read.count == bytes.count }
                    return memcmp(start, original, read.count) == 0
                }
                return isExact ? text : nil
            }
        }
    }

    private func withCell<T>(_ row: Int, _ cell: Int, _ body: (UnsafeBufferPointer<UInt8>?) -> T)
        -> T
    {
        let index = row * width + cell
        guard index < cells.count, !cells[index].isNull else { return body(nil) }
        let start = index == 0 ? 0 : cells[index - 1].end
        return bytes.withUnsafeBufferPointer {
            body(UnsafeBufferPointer(rebasing: $0[start..<cells[index].end]))
        }
    }

    /// Whether the batch's rows have `fields` texts each, and its last row all of them.
    @usableFromInline package func isWhole(fields: Int) -> Bool {
        width == fields + 1 && cells.count % width == 0
    }
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
                batch.isWhole(fields: fields.count),
                "a RowBatch's rows do not each hold an id and \(fields.count) texts")
            rows += batch.count
            decoder.run { BatchDecoder.decoded(batch, first: first) }
        }
        var (elements, problems) = decoder.joined()
        if !distinctIDs { (elements, problems) = withoutRepeatedIDs(elements, problems) }
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
        part.elements.reserveCapacity(batch.count)
        for row in 0..<batch.count {
            switch Element.decoded(row: row, of: batch, fields: fields) {
            case (let element?, _): part.elements.append(element)
            case (nil, let problem): part.problems.append((first + row + 1, problem ?? ""))
            }
        }
        return part
    }
}
