public import MVCModel

/// Why the data manager refused a change.
public enum DataManagerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A contact with this address is already listed.
    case duplicateContact(EmailAddress)

    /// A sentence a user can act on.
    public var description: String {
        switch self {
        case .duplicateContact(let address): "\(address) is already a contact"
        }
    }
}
