/// Reads netpbm's header tokens (with `#` comments) and samples.
struct NetpbmReader {
    let bytes: [UInt8]
    var position = 0

    mutating func skipWhitespaceAndComments() {
        while position < bytes.count {
            if bytes[position] == UInt8(ascii: "#") {
                while position < bytes.count, bytes[position] != UInt8(ascii: "\n") {
                    position += 1
                }
            } else if [9, 10, 13, 32].contains(bytes[position]) {
                position += 1
            } else {
                return
            }
        }
    }

    mutating func token() -> String? {
        skipWhitespaceAndComments()
        let start = position
        while position < bytes.count, ![9, 10, 13, 32].contains(bytes[position]) { position += 1 }
        return start < position ? String(decoding: bytes[start..<position], as: UTF8.self) : nil
    }

    /// The next token as a whole number, if it is one: digits only, at most six of them, so no
    /// sign, no overflow and no arithmetic on it can trap.
    mutating func number() -> Int? {
        guard let text = token(), (1...6).contains(text.utf8.count),
            text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        return Int(text)
    }

    /// How many bytes are left to read.
    var remaining: Int { bytes.count - position }

    mutating func skipOneWhitespace() {
        if position < bytes.count { position += 1 }
    }

    mutating func binarySample(bytes count: Int) -> Int? {
        guard position + count <= bytes.count else { return nil }
        defer { position += count }
        return count == 1
            ? Int(bytes[position]) : Int(bytes[position]) << 8 | Int(bytes[position + 1])
    }
}
