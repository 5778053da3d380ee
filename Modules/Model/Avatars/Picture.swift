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
    /// Any bytes are safe to decode: whatever a server sends, the result is a picture or a
    /// ``PictureError``, never a trap, and memory is reserved only for pixels the bytes can hold.
    ///
    /// - Throws: ``PictureError`` saying what is wrong with the bytes.
    /// - Complexity: O(*n*) in the size of `data`.
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
        let pixelCount = width * height
        var samples: [Int] = []
        if magic == "P6" {
            reader.skipOneWhitespace()
            let bytesPerSample = maximum < 256 ? 1 : 2
            guard reader.remaining >= pixelCount * 3 * bytesPerSample else { throw .truncated }
            samples.reserveCapacity(pixelCount * 3)
            for _ in 0..<(pixelCount * 3) {
                guard let sample = reader.binarySample(bytes: bytesPerSample) else {
                    throw .truncated
                }
                samples.append(sample)
            }
        } else {
            // A plain sample takes at least two bytes (a digit and a separator), so the bytes
            // bound how much is worth reserving.
            samples.reserveCapacity(min(pixelCount * 3, reader.remaining / 2 + 1))
            for _ in 0..<(pixelCount * 3) {
                guard let sample = reader.number() else { throw .truncated }
                samples.append(sample)
            }
        }
        guard samples.allSatisfy({ $0 <= maximum }) else {
            throw .sampleOutOfRange(maximum: maximum)
        }
        var pixels: [Pixel] = []
        pixels.reserveCapacity(pixelCount)
        // 0 ≤ sample ≤ maximum ≤ 65,535, so sample * 255 / maximum is within 0...255.
        let scale = { (sample: Int) in UInt8(sample * 255 / maximum) }
        for index in stride(from: 0, to: samples.count, by: 3) {
            pixels.append(
                Pixel(
                    red: scale(samples[index]), green: scale(samples[index + 1]),
                    blue: scale(samples[index + 2])))
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
