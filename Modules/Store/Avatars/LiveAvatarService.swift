public import Foundation
public import MVCModel

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches `<base URL>/<address>`: from an HTTP server, or from a folder with a `file://` base.
///
/// The normalized address is one path component, percent-encoded (`ada%40example.com`). HTTP goes
/// through `URLSession`; status 404 is ``AvatarServiceError/notFound(_:)``, any other status outside
/// 200...299 is ``AvatarServiceError/httpStatus(_:url:)``, and a refused, dropped or timed-out
/// connection is ``AvatarServiceError/transport(_:url:)``. A `file://` base is read directly,
/// because `URLSession` on Linux does not load file URLs; a missing file is `notFound`.
public struct LiveAvatarService: AvatarService {
    /// The folder or server avatars are fetched from.
    public let baseURL: URL
    private let session: URLSession

    /// Creates a service for `baseURL`.
    ///
    /// - Parameters:
    ///   - baseURL: A `file://` folder or an `http(s)://` location; the address is appended to it.
    ///   - timeout: How long a request may take before it fails.
    public init(baseURL: URL, timeout: Duration = .seconds(10)) {
        self.baseURL = baseURL
        let configuration = URLSessionConfiguration.ephemeral
        let seconds =
            Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        configuration.timeoutIntervalForRequest = seconds
        configuration.timeoutIntervalForResource = seconds
        session = URLSession(configuration: configuration)
    }

    /// The URL the avatar of `address` is fetched from.
    public func url(for address: EmailAddress) -> URL {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/@?#%")
        let component =
            address.rawValue.addingPercentEncoding(withAllowedCharacters: allowed)
            ?? address.rawValue
        let base =
            baseURL.absoluteString.hasSuffix("/")
            ? baseURL.absoluteString : baseURL.absoluteString + "/"
        return URL(string: base + component) ?? baseURL.appending(path: address.rawValue)
    }

    /// Fetches the avatar of `address`.
    public func avatar(for address: EmailAddress) async throws(AvatarServiceError) -> Avatar {
        let url = url(for: address)
        if url.isFileURL { return try await readFile(url, address: address) }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(from: url)
        } catch {
            if Task.isCancelled || (error as? URLError)?.code == .cancelled { throw .cancelled }
            throw .transport(Self.describe(error), url: url.absoluteString)
        }
        guard let status = (response as? HTTPURLResponse)?.statusCode else {
            throw .transport("the answer is not HTTP", url: url.absoluteString)
        }
        if status == 404 { throw .notFound(address) }
        guard (200...299).contains(status) else {
            throw .httpStatus(status, url: url.absoluteString)
        }
        return Avatar(data: data)
    }

    @concurrent
    private func readFile(_ url: URL, address: EmailAddress) async throws(AvatarServiceError)
        -> Avatar
    {
        guard FileManager.default.fileExists(atPath: url.path) else { throw .notFound(address) }
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            return Avatar(data: try handle.readToEnd() ?? Data())
        } catch {
            throw .transport(Self.describe(error), url: url.absoluteString)
        }
    }

    private static func describe(_ error: any Error) -> String {
        guard let urlError = error as? URLError else { return error.localizedDescription }
        switch urlError.code {
        case .timedOut: return "the request timed out"
        case .cannotConnectToHost: return "the server refused the connection"
        case .networkConnectionLost: return "the connection was dropped"
        case .cannotFindHost: return "the host was not found"
        case .badServerResponse: return "the server sent a malformed answer"
        default: return urlError.localizedDescription
        }
    }
}
