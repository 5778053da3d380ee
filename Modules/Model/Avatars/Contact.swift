/// Someone in the address book: a name and the address their avatar is found under.
public struct Contact: Sendable, Equatable, Codable, Identifiable {
    /// The address; it also identifies the contact.
    public let address: EmailAddress
    /// The name shown for the contact.
    public var name: String

    /// Creates a contact.
    public init(name: String, address: EmailAddress) {
        self.name = name
        self.address = address
    }

    /// The contact's address.
    public var id: EmailAddress { address }
}
