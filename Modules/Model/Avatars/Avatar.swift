public import Foundation

/// A picture of a contact: the bytes as received, their format, and the decoded picture.
///
/// The bytes are decoded when the avatar is made, which is where they arrive: off the main actor,
/// in the service. So a large picture never stalls a screen, and a screen never decodes anything.
public struct Avatar: Sendable, Equatable {
    /// The image bytes, exactly as the service returned them.
    public let data: Data
    /// The format the bytes are in, recognized from their first bytes.
    public let format: ImageFormat
    /// The decoded picture, or why the bytes are not one; `nil` for formats other than netpbm,
    /// which are not decoded.
    public let picture: Result<Picture, PictureError>?

    /// Wraps image bytes, decoding them if they are a netpbm picture.
    ///
    /// - Complexity: O(*n*) in the size of `data`.
    public init(data: Data) {
        self.data = data
        self.format = ImageFormat(recognizing: data)
        self.picture =
            format == .netpbm
            ? Result { () throws(PictureError) in try Picture(netpbm: data) } : nil
    }
}

/// The image formats an avatar can come in, recognized by their signatures.
public enum ImageFormat: Sendable, Equatable, CustomStringConvertible {
    /// Netpbm colour image, binary (`P6`) or plain text (`P3`): these can be drawn in a terminal.
    case netpbm
    /// PNG.
    case png
    /// JPEG.
    case jpeg
    /// GIF.
    case gif
    /// Anything else.
    case unknown

    /// Recognizes the format of `data` from its first bytes.
    public init(recognizing data: Data) {
        let head = Array(data.prefix(8))
        if head.starts(with: Array("P6".utf8)) || head.starts(with: Array("P3".utf8)) {
            self = .netpbm
        } else if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            self = .png
        } else if head.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if head.starts(with: Array("GIF8".utf8)) {
            self = .gif
        } else {
            self = .unknown
        }
    }

    /// The format's usual name.
    public var description: String {
        switch self {
        case .netpbm: "PPM"
        case .png: "PNG"
        case .jpeg: "JPEG"
        case .gif: "GIF"
        case .unknown: "unknown format"
        }
    }
}
