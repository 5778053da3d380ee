public import Foundation

/// A decoded colour image: width, height, and one RGB pixel per position, row by row.
public struct Picture: Sendable, Equatable {
    /// One pixel's colour.
    public struct Pixel: Sendable, Equatable, Hashable {
        /// Red, 0...255.
        public var red: UInt8
        /// Green, 0...255.
        public var green: UInt8
        /// Blue, 0...255.
        public var blue: UInt8

        /// Creates a pixel.
        public init(red: UInt8, green: UInt8, blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }
    }

    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int
    /// `width * height` pixels, row by row from the top left.
    public let pixels: [Pixel]

    /// Creates a picture; `pixels` must hold `width * height` pixels.
    public init?(width: Int, height: Int, pixels: [Pixel]) {
        guard width > 0, height > 0, pixels.count == width * height else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Creates a picture by asking for each pixel; a side less than 1 is taken as 1.
    ///
    /// - Parameters:
    ///   - width: Columns.
    ///   - height: Rows.
    ///   - pixel: The colour at a column and row.
    public init(width: Int, height: Int, pixel: (_ column: Int, _ row: Int) -> Pixel) {
        self.width = max(1, width)
        self.height = max(1, height)
        var pixels: [Pixel] = []
        pixels.reserveCapacity(self.width * self.height)
        for row in 0..<self.height {
            for column in 0..<self.width { pixels.append(pixel(column, row)) }
        }
        self.pixels = pixels
    }

    /// The pixel at a column and row.
    public subscript(column: Int, row: Int) -> Pixel {
        pixels[row * width + column]
    }

    /// The largest width or height decoded, to keep a hostile file from exhausting memory.
    public static let maximumSide = 4_096

    /// Decodes a netpbm colour image (`P6` binary or `P3` plain), scaling samples to 0...255.
    ///
    /// - Throws: ``PictureError`` saying what is wrong with the bytes.
    public init(netpbm data: Data) throws(PictureError) {
        var reader = NetpbmReader(bytes: Array(data))
        let magic = reader.token()
        guard magic == "P6" || magic == "P3" else { throw .notNetpbm }
        guard let width = reader.number(), let height = reader.number(),
            let maximum = reader.number()
        else {
            throw .badHeader
        }
        guard (1...Self.maximumSide).contains(width), (1...Self.maximumSide).contains(height),
            (1...65_535).contains(maximum)
        else { throw .badHeader }
        var pixels: [Pixel] = []
        pixels.reserveCapacity(width * height)
        let scale = { (sample: Int) in UInt8(min(255, sample * 255 / maximum)) }
        if magic == "P6" {
            reader.skipOneWhitespace()
            let bytesPerSample = maximum < 256 ? 1 : 2
            for _ in 0..<(width * height) {
                var channels: [Int] = []
                for _ in 0..<3 {
                    guard let sample = reader.binarySample(bytes: bytesPerSample) else {
                        throw .truncated
                    }
                    channels.append(sample)
                }
                pixels.append(
                    Pixel(
                        red: scale(channels[0]), green: scale(channels[1]), blue: scale(channels[2])
                    ))
            }
        } else {
            for _ in 0..<(width * height) {
                guard let red = reader.number(), let green = reader.number(),
                    let blue = reader.number()
                else {
                    throw .truncated
                }
                pixels.append(Pixel(red: scale(red), green: scale(green), blue: scale(blue)))
            }
        }
        guard let picture = Picture(width: width, height: height, pixels: pixels) else {
            throw .badHeader
        }
        self = picture
    }

    /// Encodes the picture as binary netpbm (`P6`, 8 bits per sample).
    public var netpbmData: Data {
        var data = Data("P6\n\(width) \(height)\n255\n".utf8)
        data.reserveCapacity(data.count + pixels.count * 3)
        for pixel in pixels { data.append(contentsOf: [pixel.red, pixel.green, pixel.blue]) }
        return data
    }
}

/// Why bytes are not a netpbm colour image.
public enum PictureError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes do not start with `P6` or `P3`.
    case notNetpbm
    /// The width, height or maximum sample value is missing or out of range.
    case badHeader
    /// The pixel data ends early.
    case truncated

    /// A sentence a user can act on.
    public var description: String {
        switch self {
        case .notNetpbm: "not a PPM image"
        case .badHeader: "the PPM header is missing or out of range"
        case .truncated: "the PPM image is cut short"
        }
    }
}

/// Reads netpbm's header tokens (with `#` comments) and samples.
private struct NetpbmReader {
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

    mutating func number() -> Int? {
        guard let text = token(), text.count <= 6 else { return nil }
        return Int(text)
    }

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
