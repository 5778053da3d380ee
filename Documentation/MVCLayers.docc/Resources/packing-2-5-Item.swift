import Foundation

/// One thing to pack, and how many of it.
public struct Item: Codable, Equatable, Sendable, Identifiable {
    public let id: UUID
    public var name: String
    public var isPacked: Bool
    /// New in version 2 of the file.
    public var quantity: Int

    public init(id: UUID = UUID(), name: String, isPacked: Bool = false, quantity: Int = 1) {
        self.id = id
        self.name = name
        self.isPacked = isPacked
        self.quantity = quantity
    }
}
