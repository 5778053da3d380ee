import Foundation

/// Says where and how a file fails to be JSON, in words a user can act on.
enum JSONSyntax {
    /// What is wrong with `data` as JSON ("the file is cut short", "line 3, column 5 is not valid
    /// JSON", "… is not UTF-8 text"), or `nil` if it is valid JSON (and the problem, if any, is
    /// its shape).
    static func problem(in data: Data) -> String? {
        if data.isEmpty { return "the file is empty" }
        if let offset = firstInvalidUTF8Offset(in: data) {
            let (line, column) = lineAndColumn(of: offset, in: data)
            return "line \(line), column \(column) is not UTF-8 text (save the file as UTF-8)"
        }
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return nil
        } catch {
            let detail =
                ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
            if detail.contains("surrogate") {
                // The parser calls a lone \uD800 "end of file", which it is not.
                return "a \\u escape is half of a UTF-16 surrogate pair without its other half"
            }
            if detail.contains("Unexpected end of file") {
                return "the file ends in the middle of the data: it was cut short"
            }
            if let offset = characterOffset(in: detail) {
                let (line, column) = lineAndColumn(of: offset, in: data)
                if detail.contains("Too many nested") {
                    return
                        "line \(line), column \(column): its arrays and objects are nested too deeply there (a reader takes 512 levels)"
                }
                return "line \(line), column \(column) is not valid JSON"
            }
            if detail.hasSuffix("is not representable in Swift.") {
                // Says which number: no line or column comes with it.
                return detail.replacingOccurrences(
                    of: "is not representable in Swift.", with: "is too large a number to read")
            }
            return detail
        }
    }

    /// The first field name in `data` that a save would lose, said with its line and column: a
    /// name not in `topLevel` (for the envelope's own fields) or `document` (for every field
    /// inside the document, at any depth), or a name given twice in one object.
    ///
    /// `data` must be valid JSON. One pass over the bytes, counting nesting outside strings: a
    /// string followed by a colon is a field name; names without escapes are compared byte for
    /// byte, names with escapes are decoded first.
    ///
    /// - Complexity: O(*n*) in the size of `data`.
    static func fieldNameProblem(in data: Data, topLevel: Set<String>, document: Set<String>)
        -> String?
    {
        let topLevelBytes = topLevel.map { Array($0.utf8) }
        let documentBytes = document.map { Array($0.utf8) }
        let found: (key: FieldName, isDuplicate: Bool)? = data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            // The names seen so far in each open object, by nesting depth (reused, not reallocated).
            var namesByDepth: [[FieldName]] = []
            var depth = 0
            var index = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    if namesByDepth.count == depth {
                        namesByDepth.append([])
                    } else {
                        namesByDepth[depth].removeAll(keepingCapacity: true)
                    }
                    depth += 1
                    index += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    index += 1
                case UInt8(ascii: "\""):
                    guard let key = fieldName(at: index, in: bytes) else {
                        index = endOfString(at: index, in: bytes)
                        continue
                    }
                    index = key.range.upperBound + 1
                    guard depth > 0 else { continue }
                    let known = depth == 1 ? topLevelBytes : documentBytes
                    if key.hasEscape || !known.contains(where: { key.hasBytes($0, in: bytes) }) {
                        let name = key.name(in: data)
                        if !(depth == 1 ? topLevel : document).contains(name) {
                            return (key, false)
                        }
                    }
                    if namesByDepth[depth - 1].contains(where: { $0.isSameName(as: key, in: data) })
                    {
                        return (key, true)
                    }
                    namesByDepth[depth - 1].append(key)
                default:
                    index += 1
                }
            }
            return nil
        }
        guard let found else { return nil }
        let (line, column) = lineAndColumn(of: found.key.range.lowerBound - 1, in: data)
        let name = displayed(found.key.name(in: data))
        return found.isDuplicate
            ? "line \(line), column \(column): the field “\(name)” is given twice in one object, and a "
                + "save would keep only one of its values"
            : "line \(line), column \(column): this version knows no field “\(name)”, and a save "
                + "would drop it"
    }

    /// A field name's bytes in the file, between its quotes.
    struct FieldName {
        var range: Range<Int>
        var hasEscape: Bool

        /// Whether the file spells the name with exactly the bytes of `name`.
        func hasBytes(_ name: some Collection<UInt8>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool
        {
            name.count == range.count && bytes[range].elementsEqual(name)
        }

        /// The name as JSON reads it (escapes decoded).
        func name(in data: Data) -> String {
            let quoted = data[
                (data.startIndex + range.lowerBound - 1)..<(data.startIndex + range.upperBound + 1)]
            if hasEscape, let decoded = try? JSONDecoder().decode(String.self, from: quoted) {
                return decoded
            }
            return String(decoding: quoted.dropFirst().dropLast(), as: UTF8.self)
        }

        func bytes(in data: Data) -> Data {
            data[(data.startIndex + range.lowerBound)..<(data.startIndex + range.upperBound)]
        }

        func isSameName(as other: FieldName, in data: Data) -> Bool {
            if !hasEscape, !other.hasEscape { return bytes(in: data) == other.bytes(in: data) }
            return name(in: data) == other.name(in: data)
        }
    }

    /// The field name whose opening quote is at `quote`, or `nil` if that string is a value.
    private static func fieldName(at quote: Int, in bytes: UnsafeBufferPointer<UInt8>) -> FieldName?
    {
        let end = endOfString(at: quote, in: bytes) - 1
        guard end < bytes.count else { return nil }
        var next = end + 1
        while next < bytes.count, isWhitespace(bytes[next]) { next += 1 }
        guard next < bytes.count, bytes[next] == UInt8(ascii: ":") else { return nil }
        let range = (quote + 1)..<end
        return FieldName(
            range: range, hasEscape: bytes[range].contains(UInt8(ascii: "\\")))
    }

    /// The index just past the string whose opening quote is at `quote`.
    private static func endOfString(at quote: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var end = quote + 1
        while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
            end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
        }
        return end + 1
    }

    /// A name from a file, fit to quote in a message: control characters escaped, and long ones
    /// cut (a file can hold anything, and the message goes to a terminal).
    static func displayed(_ name: String) -> String {
        var shown = ""
        for scalar in name.unicodeScalars.prefix(60) {
            if scalar.properties.generalCategory == .control || scalar.properties.isBidiControl {
                shown += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return name.unicodeScalars.count > 60 ? shown + "…" : shown
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// The byte offset of the first byte sequence in `data` that is not UTF-8, if there is one.
    private static func firstInvalidUTF8Offset(in data: Data) -> Int? {
        var bytes = data.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&bytes) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    /// The character offset a parser message names ("around character 12"), if it names one.
    private static func characterOffset(in message: String) -> Int? {
        guard let range = message.range(of: "character ") else { return nil }
        return Int(message[range.upperBound...].prefix { $0.isNumber })
    }

    /// The 1-based line and column of byte `offset` in `data`.
    private static func lineAndColumn(of offset: Int, in data: Data) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in data.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return (line, column)
    }
}
