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
            if detail.contains("Unexpected end of file") {
                return "the file ends in the middle of the data: it was cut short"
            }
            if let offset = characterOffset(in: detail) {
                let (line, column) = lineAndColumn(of: offset, in: data)
                return "line \(line), column \(column) is not valid JSON"
            }
            return detail
        }
    }

    /// The first object key in `data` that is not in `known`, with its 1-based line and column.
    ///
    /// `data` must be valid JSON. One pass over the bytes: a string followed by a colon is a key;
    /// a key without escapes is compared byte for byte, one with escapes is decoded first.
    ///
    /// - Complexity: O(*n*) in the size of `data`, allocating only for keys with escapes.
    static func firstUnknownFieldName(in data: Data, known: Set<String>)
        -> (name: String, line: Int, column: Int)?
    {
        var offset = 0
        while let key = nextCandidateKey(in: data, from: offset, known: known) {
            let quoted = data[(data.startIndex + key.start - 1)..<(data.startIndex + key.end + 1)]
            let name =
                key.hasEscape
                ? (try? JSONDecoder().decode(String.self, from: quoted))
                    ?? String(decoding: quoted, as: UTF8.self)
                : String(decoding: quoted.dropFirst().dropLast(), as: UTF8.self)
            if !known.contains(name) {
                let (line, column) = lineAndColumn(of: key.start - 1, in: data)
                return (name, line, column)
            }
            offset = key.end + 1  // a known name spelt with escapes: look further on
        }
        return nil
    }

    /// The byte range of the next key from `offset` on that is not in `known` byte for byte, or
    /// that has escapes (so its bytes are not its name).
    private static func nextCandidateKey(in data: Data, from offset: Int, known: Set<String>)
        -> (start: Int, end: Int, hasEscape: Bool)?
    {
        let knownBytes = known.map { Array($0.utf8) }
        let quote = UInt8(ascii: "\"")
        let backslash = UInt8(ascii: "\\")
        let colon = UInt8(ascii: ":")
        return data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var index = offset
            while index < bytes.count {
                guard bytes[index] == quote else {
                    index += 1
                    continue
                }
                let start = index + 1
                var end = start
                var hasEscape = false
                while end < bytes.count, bytes[end] != quote {
                    if bytes[end] == backslash { hasEscape = true }
                    end += bytes[end] == backslash ? 2 : 1
                }
                guard end < bytes.count else { return nil }
                index = end + 1
                var next = index
                while next < bytes.count, isWhitespace(bytes[next]) { next += 1 }
                guard next < bytes.count, bytes[next] == colon else { continue }
                if hasEscape || !isKnown(bytes, start..<end, knownBytes) {
                    return (start, end, hasEscape)
                }
            }
            return nil
        }
    }

    /// Whether `bytes[range]` is one of `known`, compared length first, then byte by byte.
    private static func isKnown(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ known: [[UInt8]]
    ) -> Bool {
        for name in known where name.count == range.count {
            var matches = true
            var offset = 0
            while offset < name.count {
                if name[offset] != bytes[range.lowerBound + offset] {
                    matches = false
                    break
                }
                offset += 1
            }
            if matches { return true }
        }
        return false
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
