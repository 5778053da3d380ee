/// Why bytes are not a netpbm colour image.
public enum PictureError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes do not start with `P6` or `P3`.
    case notNetpbm
    /// The width, height or maximum sample value is missing or out of range.
    case badHeader
    /// The pixel data ends early.
    case truncated
    /// A sample is larger than the maximum the header declares.
    case sampleOutOfRange(maximum: Int)

    /// A sentence a user can act on.
    public var description: String {
        switch self {
        case .notNetpbm: "not a PPM image"
        case .badHeader: "the PPM header is missing or out of range"
        case .truncated: "the PPM image is cut short"
        case .sampleOutOfRange(let maximum):
            "the PPM image has a sample above its declared maximum of \(maximum)"
        }
    }
}
