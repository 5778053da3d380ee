import MVCElements

/// A validated e-mail address: shown as it was typed, identified by its case-folded form.
///
/// Made only through ``init(_:)``, which trims surrounding whitespace and checks the address.
/// One mailbox is one contact and one avatar whatever the case of any part: the ``key`` is the
/// whole address case-folded, which is what avatar services hash and look up (the standard lets
/// a server treat the local part as case-sensitive, but no real mailbox provider does, and two
/// contacts for `BOB@Example.COM` and `bob@example.com` would be one person twice). Equality,
/// hashing and ordering use the key; ``rawValue`` and ``description`` keep the spelling typed:
/// `" Ada@Example.COM "` and `"ada@example.com"` are equal, and the first still shows as
/// `Ada@Example.COM`.
public struct EmailAddress: Sendable, Hashable, Codable, CustomStringConvertible, Comparable {
    /// The address as typed (without surrounding whitespace), as shown and saved.
    public let rawValue: String
    /// The address case-folded whole: what identifies the mailbox, and what is sent to an
    /// avatar service.
    public let key: String

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
        let domain = String(trimmed[trimmed.index(after: at)...])
        try Self.checkLocalPart(local)
        try Self.checkDomain(domain.lowercased())
        rawValue = trimmed
        // Only ASCII letters are allowed, so lowercasing is case folding.
        key = trimmed.lowercased()
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

    /// Encodes the address as it was typed.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The address as it was typed.
    public var description: String { rawValue }

    /// Orders addresses alphabetically.
    public static func < (lhs: EmailAddress, rhs: EmailAddress) -> Bool {
        lhs.key < rhs.key
    }

    /// Whether two addresses are one mailbox, whatever the case of either.
    public static func == (lhs: EmailAddress, rhs: EmailAddress) -> Bool {
        lhs.key == rhs.key
    }

    /// Hashes the key, so two spellings of one mailbox land in one slot.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
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
