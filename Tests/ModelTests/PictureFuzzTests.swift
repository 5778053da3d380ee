import Foundation
import MVCModel
import Testing

/// Pictures come from servers, so the decoder must survive any bytes: these tests throw 100,000
/// generated and mutated inputs at it, from a fixed seed so that a failure can be replayed.
@Suite("The picture decoder under hostile input")
struct PictureFuzzTests {
    @Test("100,000 generated and mutated inputs decode or fail with a PictureError, never trap")
    func fuzz() {
        var random = Xorshift(seed: 0x5EED_1234)
        let seeds = Self.validPictures()
        var decoded = 0
        for _ in 0..<100_000 {
            let input = Self.hostileInput(from: seeds, using: &random)
            do {
                let picture = try Picture(netpbm: Data(input))
                #expect(picture.pixels.count == picture.width * picture.height)
                decoded += 1
            } catch {
                // A typed PictureError is the promised outcome for bad bytes.
            }
        }
        // The mutations keep some inputs valid, so the decoding paths run too, not only the checks.
        #expect(decoded > 1_000)
    }

    /// Small valid pictures in both encodings and both sample sizes.
    static func validPictures() -> [[UInt8]] {
        let picture = Picture(width: 3, height: 2) { column, row in
            .init(red: UInt8(column * 70), green: UInt8(row * 120), blue: 9)
        }
        var sixteenBit = Array("P6 1 2 65535\n".utf8)
        sixteenBit += [0xFF, 0xFF, 0x00, 0x00, 0x80, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06]
        return [
            Array(picture.netpbmData),
            Array("P3\n# comment\n2 1\n15\n15 0 0   0 15 0\n".utf8),
            sixteenBit,
        ]
    }

    /// One input: a valid picture with a few mutations, or a header made of random tokens.
    static func hostileInput(from seeds: [[UInt8]], using random: inout Xorshift) -> [UInt8] {
        if random.next() % 4 == 0 {
            let tokens = [
                "P6", "P3", "-1", "0", "1", "2", "255", "65535", "65536", "4096",
                "999999", "#", "\n", "-", "+3", "2e3", "\u{0}",
            ]
            return (0..<Int(random.next() % 12)).flatMap { _ in
                Array((tokens[Int(random.next() % UInt64(tokens.count))] + " ").utf8)
            }
        }
        var bytes = seeds[Int(random.next() % UInt64(seeds.count))]
        for _ in 0..<Int(random.next() % 4) {
            guard !bytes.isEmpty else { break }
            let position = Int(random.next() % UInt64(bytes.count))
            switch random.next() % 5 {
            case 0: bytes[position] = UInt8(truncatingIfNeeded: random.next())
            case 1: bytes.insert(UInt8(ascii: "-"), at: position)
            case 2: bytes.removeSubrange(position...)
            case 3: bytes.insert(contentsOf: Array("9999".utf8), at: position)
            default: bytes.remove(at: position)
            }
        }
        return bytes
    }
}

/// A small deterministic generator (xorshift64*), so the fuzz run is the same every time.
struct Xorshift: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed == 0 ? 1 : seed
    }

    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
}
