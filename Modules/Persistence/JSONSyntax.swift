import Foundation

/// Says where and how a file fails to be JSON, in words a user can act on.
enum JSONSyntax {
    /// What is wrong with `data` as JSON ("the file is cut short", "line 3, column 5 is not valid
    /// JSON"), or `nil` if it is valid JSON (and the problem, if any, is its shape).
    static func problem(in data: Data) -> String? {
        if data.isEmpty { return "the file is empty" }
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
