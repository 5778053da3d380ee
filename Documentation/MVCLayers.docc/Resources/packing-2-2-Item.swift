import Foundation
import MVCElements

/// One thing to pack: a plain value.
public struct Item: Sendable, Equatable, Identifiable {
    /// Identifies the item for as long as it exists.
    public let id: UUID
    /// What the item is: never empty.
    public var name: String
    /// Whether it is in the bag.
    public var isPacked = false
    /// How many to take: at least 1.
    public var quantity = 1

    /// An item, not yet packed.
    public init(id: UUID = UUID(), name: String) {
        self.id = id
        self.name = name
    }
}
