import Foundation
import MVCElements

/// An item is stored as an object of its described fields; one it lacks takes its default.
extension Item: Codable {
    /// Reads the described fields.
    public init(from decoder: any Decoder) throws { self = try Self.decodeFields(from: decoder) }
    /// Writes the described fields.
    public func encode(to encoder: any Encoder) throws { try encodeFields(to: encoder) }
}
