/// A validated, normalized e-mail address: the key every avatar is stored and requested under.
///
/// Made only through ``init(_:)``, which trims surrounding whitespace, checks the address, and
/// lowercases the domain (domains are case-insensitive; the local part is left as typed, since the
/// standard lets a mail server treat it as case-sensitive). Two spellings of one address are
/// therefore one key: `" Ada@Example.COM "` and `"Ada@example.com"` are equal.
public struct EmailAddress: Sendable, Hashable, Codable, CustomStringConvertible, Comparable {
    /// The normalized address, as stored and sent.
    public let rawValue: String

    /// The longest address the standard allows, in characters.
    public static let maximumLength = 254

    /// Checks and normalizes `text`.
    ///
    /// - Throws: ``EmailAddressError`` naming what is wrong; never traps.
    public init(_ text: String) throws(EmailAddressError) {
        let trimmed = text.trimmedOfWhitespace
        guard !trimmed.isEmpty else { throw .empty }
        guard trimmed.count <= Self.maximumLength else { throw .tooLong(trimmed.count) }
        guard let at = trimmed.lastIndex(of: "@") else { throw .missingAtSign }
        let local = String(trimmed[..<at])
        let domain = String(trimmed[trimmed.index(after: at)...]).lowercased()
        try Self.checkLocalPart(local)
        try Self.checkDomain(domain)
        rawValue = "\(local)@\(domain)"
    }

    /// Decodes and validates an address stored as a string.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(text)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "\(text) is not an e-mail address: \(error)")
            )
        }
    }

    /// Encodes the normalized address as a string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The normalized address.
    public var description: String { rawValue }

    /// Orders addresses alphabetically.
    public static func < (lhs: EmailAddress, rhs: EmailAddress) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    private static let localPartSymbols = Set("!#$%&'*+-/=?^_`{|}~.")

    private static func checkLocalPart(_ local: String) throws(EmailAddressError) {
        guard !local.isEmpty else { throw .emptyLocalPart }
        guard local.count <= 64 else { throw .localPartTooLong(local.count) }
        for character in local
        where !(character.isASCII && (character.isLetter || character.isNumber))
            && !localPartSymbols.contains(character)
        {
            throw .invalidCharacter(character)
        }
        guard !local.hasPrefix("."), !local.hasSuffix("."), !local.contains("..") else {
            throw .misplacedDot
        }
    }

    private static func checkDomain(_ domain: String) throws(EmailAddressError) {
        guard !domain.isEmpty else { throw .emptyDomain }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2 else { throw .invalidDomain(domain) }
        for label in labels {
            let isValidLabel =
                !label.isEmpty && label.count <= 63 && !label.hasPrefix("-")
                && !label.hasSuffix("-")
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
            guard isValidLabel else { throw .invalidDomain(domain) }
        }
    }
}

/// Why a text is not an e-mail address.
public enum EmailAddressError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing but whitespace was given.
    case empty
    /// Longer than the 254 characters the standard allows.
    case tooLong(Int)
    /// No `@` separates the local part from the domain.
    case missingAtSign
    /// Nothing before the `@`.
    case emptyLocalPart
    /// More than 64 characters before the `@`.
    case localPartTooLong(Int)
    /// A character an unquoted local part may not hold (a space, a comma, a non-ASCII letter...).
    case invalidCharacter(Character)
    /// A dot at the start or end of the local part, or two in a row.
    case misplacedDot
    /// Nothing after the `@`.
    case emptyDomain
    /// The domain is not dot-separated labels of letters, digits and inner hyphens.
    case invalidDomain(String)

    /// A sentence a user can act on.
    public var description: String {
        switch self {
        case .empty: "an e-mail address is needed"
        case .tooLong(let count):
            "an e-mail address has at most 254 characters; this one has \(count)"
        case .missingAtSign: "an e-mail address needs an @ between the name and the domain"
        case .emptyLocalPart: "an e-mail address needs a name before the @"
        case .localPartTooLong(let count):
            "the part before the @ has at most 64 characters; this one has \(count)"
        case .invalidCharacter(let character): "an e-mail address cannot contain '\(character)'"
        case .misplacedDot:
            "the part before the @ cannot start or end with a dot, or have two in a row"
        case .emptyDomain: "an e-mail address needs a domain after the @"
        case .invalidDomain(let domain): "'\(domain)' is not a valid domain"
        }
    }
}
