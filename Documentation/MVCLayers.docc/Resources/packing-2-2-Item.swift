import Foundation

/// One thing to pack.
public struct Item: Codable, Equatable, Sendable, Identifiable {
    /// Identifies the item, whatever its name.
    public let id: UUID
    /// What the item is.
    public var name: String
    /// Whether it is in the bag.
    public var isPacked: Bool

    /// An item, not yet packed unless said.
    public init(id: UUID = UUID(), name: String, isPacked: Bool = false) {
        self.id = id
        self.name = name
        self.isPacked = isPacked
    }
}
