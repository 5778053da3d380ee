import Foundation

/// One thing to pack, and how many of it.
public struct Item: Codable, Equatable, Sendable, Identifiable {
    /// Identifies the item, whatever its name.
    public let id: UUID
    /// What the item is.
    public var name: String
    /// Whether it is in the bag.
    public var isPacked: Bool
    /// New in version 2 of the file.
    public var quantity: Int

    /// An item, not yet packed unless said.
    public init(id: UUID = UUID(), name: String, isPacked: Bool = false, quantity: Int = 1) {
        self.id = id
        self.name = name
        self.isPacked = isPacked
        self.quantity = quantity
    }
}
