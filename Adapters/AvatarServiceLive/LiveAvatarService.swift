public import Foundation
public import MVCModel
public import MVCStore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches `<base URL>/<address>`: from an HTTP server, or from a folder with a `file://` base.
///
/// The normalized address is one path component, percent-encoded (`ada%40example.com`). Plain
/// `http://` is read from a socket of the service's own, a bounded piece at a time; `https://`
/// goes through `URLSession`. Status 404 is `AvatarServiceError/notFound(_:)`, any other status
/// outside 200...299 is `AvatarServiceError/httpStatus(_:url:)`, and a refused, dropped or
/// timed-out connection is `AvatarServiceError/transport(_:url:)`. A `file://` base is read directly,
/// because `URLSession` on Linux does not load file URLs; a missing file is `notFound`.
///
/// **A server is not trusted.** An answer larger than ``maximumResponseSize`` is cut off as soon
/// as it grows past it (or refused at once if it announces its size) and ends as
/// `AvatarServiceError/tooLarge(limit:url:)`, so a server that keeps sending cannot grow the
/// process. A request that waits longer than ``timeout`` for the connection or between bytes, or
/// takes longer than ``timeout`` in all, ends as a transport error saying it timed out, so a
/// server that never answers, or answers a byte at a time, cannot hold a request for long.
///
/// **Requests in flight are limited** to ``maximumConcurrentRequests``; the others wait their turn
/// (a cancelled one stops waiting at once). So hundreds of requests at once neither run the
/// process out of file descriptors nor hold more than that many answers of the largest size. A
/// request that cannot get a descriptor all the same fails with a transport error saying so.
///
/// On Linux an https answer is not bounded as tightly: URLSession reads ahead of its delegate
/// with no back pressure, so a fast endless answer may be buffered past the limit before it is cut
/// off (`SocketDownload` explains why plain http does not use URLSession).
public struct LiveAvatarService: AvatarService {
    /// The folder or server avatars are fetched from.
    public let baseURL: URL
    /// How long a request may wait for the server, and may take in all.
    public let timeout: Duration
    /// The largest answer accepted, in bytes.
    public let maximumResponseSize: Int
    /// How many requests may be in flight at once; the others wait their turn.
    public var maximumConcurrentRequests: Int { limiter.limit }
    let limiter: RequestLimiter
    private let session: SharedSession
    /// How plain `http://` is fetched; tests choose URLSession to check that path over loopback.
    package var httpTransport = HTTPTransport.socket

    /// The default limit on an answer's size: 4 MiB, far above any avatar.
    public static let defaultMaximumResponseSize = 4 * 1_024 * 1_024
    /// The default number of requests in flight at once: 6, as browsers allow per server.
    public static let defaultMaximumConcurrentRequests = 6

    /// Creates a service for `baseURL`.
    ///
    /// - Parameters:
    ///   - baseURL: A `file://` folder or an `http(s)://` location; the address is appended to it.
    ///   - timeout: How long a request may wait for the server, and may take in all.
    ///   - maximumResponseSize: The largest answer accepted, in bytes.
    ///   - maximumConcurrentRequests: How many requests may be in flight at once (at least 1).
    public init(
        baseURL: URL, timeout: Duration = .seconds(10),
        maximumResponseSize: Int = LiveAvatarService.defaultMaximumResponseSize,
        maximumConcurrentRequests: Int = LiveAvatarService.defaultMaximumConcurrentRequests
    ) {
        self.baseURL = baseURL
        self.timeout = timeout
        // Below Int.max, so that reading one byte more than the limit cannot overflow.
        self.maximumResponseSize = min(max(0, maximumResponseSize), Int.max - 1)
        self.limiter = RequestLimiter(limit: maximumConcurrentRequests)
        self.session = SharedSession(timeout: timeout)
    }

    /// The URL the avatar of `address` is fetched from.
    public func url(for address: EmailAddress) -> URL {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/@?#%")
        // The key, so every spelling of one mailbox asks for one avatar.
        let component =
            address.key.addingPercentEncoding(withAllowedCharacters: allowed) ?? address.key
        let base =
            baseURL.absoluteString.hasSuffix("/")
            ? baseURL.absoluteString : baseURL.absoluteString + "/"
        return URL(string: base + component) ?? baseURL.appending(path: address.key)
    }

    /// Fetches the avatar of `address`.
    public func avatar(for address: EmailAddress) async throws(AvatarServiceError) -> Avatar {
        let url = url(for: address)
        if url.isFileURL { return try await readFile(url, address: address) }
        guard await limiter.acquire() else { throw .cancelled }
        defer { limiter.release() }
        var current = url
        for _ in 0...Self.redirectLimit {
            let outcome = await download(current)
            switch outcome {
            case .finished(let data, let status):
                if status == 404 { throw .notFound(address) }
                guard (200...299).contains(status) else {
                    throw .httpStatus(status, url: current.absoluteString)
                }
                return Avatar(data: data)
            case .redirected(let location):
                guard let next = URL(string: location, relativeTo: current)?.absoluteURL,
                    ["http", "https"].contains(next.scheme?.lowercased() ?? "")
                else {
                    throw .transport(
                        "the server sent the request to “\(location)”, which is not a web address",
                        url: current.absoluteString)
                }
                current = next
            case .tooLarge:
                throw .tooLarge(limit: maximumResponseSize, url: current.absoluteString)
            case .cancelled:
                throw .cancelled
            case .failed(let reason):
                throw .transport(reason, url: current.absoluteString)
            }
        }
        throw .transport(
            "the server redirected the request more than \(Self.redirectLimit) times",
            url: url.absoluteString)
    }

    /// How many redirects a request follows, as URLSession does for https.
    private static let redirectLimit = 5

    /// One request for `url`: plain http from a socket, https through the shared session.
    private func download(_ url: URL) async -> CappedDownload.Outcome {
        if url.scheme?.lowercased() == "http" && httpTransport == .socket {
            return await SocketDownload(url: url, limit: maximumResponseSize, timeout: timeout)
                .run()
        }
        return await CappedDownload(url: url, limit: maximumResponseSize, timeout: timeout)
            .run(in: session)
    }

    @concurrent
    private func readFile(_ url: URL, address: EmailAddress) async throws(AvatarServiceError)
        -> Avatar
    {
        var status = stat()
        guard stat(url.path, &status) == 0 else { throw .notFound(address) }
        // A pipe would block the open for ever, whatever the timeout; a device would never end.
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw .transport("it is not a regular file", url: url.absoluteString)
        }
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            // One byte more than the limit tells "too large" from "exactly at the limit", and a
            // file that never ends (a device, a pipe) is read no further.
            let data = try handle.read(upToCount: maximumResponseSize + 1) ?? Data()
            guard data.count <= maximumResponseSize else {
                throw AvatarServiceError.tooLarge(
                    limit: maximumResponseSize, url: url.absoluteString)
            }
            return Avatar(data: data)
        } catch let error as AvatarServiceError {
            throw error
        } catch {
            throw .transport(error.localizedDescription, url: url.absoluteString)
        }
    }
}

/// How ``LiveAvatarService`` fetches plain `http://`: from a socket of its own (the default), or
/// through URLSession as https is.
package enum HTTPTransport: Sendable, CaseIterable {
    case socket
    case urlSession
}
