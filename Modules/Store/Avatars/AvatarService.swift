public import MVCModel

/// Where avatars come from: fetches the avatar of one address.
///
/// Implementations: `LiveAvatarService` (in MVCAvatarServiceLive) (a folder or an HTTP server) and
/// ``SimulatedAvatarService`` (generated pictures, with latency and failures on demand). Calls
/// run off the main actor and must honour task cancellation.
public protocol AvatarService: Sendable {
    /// Fetches the avatar of `address`.
    ///
    /// - Throws: ``AvatarServiceError`` saying what went wrong.
    func avatar(for address: EmailAddress) async throws(AvatarServiceError) -> Avatar
}

/// Why an avatar could not be fetched.
public enum AvatarServiceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The source has no avatar for this address (HTTP 404, or no such file).
    case notFound(EmailAddress)
    /// The server answered with an error status.
    case httpStatus(Int, url: String)
    /// The request failed on the way: refused, dropped, timed out, unreadable file.
    case transport(String, url: String)
    /// The answer was larger than the limit, in bytes; it was cut off, not kept.
    case tooLarge(limit: Int, url: String)
    /// The request was cancelled before it finished.
    case cancelled

    /// A sentence a user can act on.
    public var description: String {
        switch self {
        case .notFound(let address): "no avatar for \(address)"
        case .httpStatus(let status, let url): "the server answered \(status) for \(url)"
        case .transport(let reason, let url): "cannot fetch \(url): \(reason)"
        case .tooLarge(let limit, let url):
            "the answer from \(url) is larger than \(limit) bytes; it was not kept"
        case .cancelled: "the request was cancelled"
        }
    }
}
