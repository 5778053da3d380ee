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

/// Why an item breaks a rule.
public enum ItemProblem: Error, Equatable, Sendable, CustomStringConvertible {
    case emptyName
    case tooFew(Int)
    case notANumber(String)
    case notYesOrNo(String)

    /// A sentence a user can act on.
    public var description: String {
        switch self {
        case .emptyName: "an item needs a name"
        case .tooFew(let quantity): "take at least 1, not \(quantity)"
        case .notANumber(let text): "“\(text)” is not a number"
        case .notYesOrNo(let text): "“\(text)” is neither true nor false"
        }
    }
}

/// What a list store will need to know about an item.
extension Item {
    /// What one item is called in a sentence.
    public static var noun: String { "item" }
    /// The name, as labels show it.
    public var title: String { name }
}
