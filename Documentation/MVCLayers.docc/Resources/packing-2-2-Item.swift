import Foundation

/// One thing to pack.
public struct Item: Codable, Equatable, Sendable, Identifiable {
    public let id: UUID
    public var name: String
    public var isPacked: Bool

    public init(id: UUID = UUID(), name: String, isPacked: Bool = false) {
        self.id = id
        self.name = name
        self.isPacked = isPacked
    }
}
