import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One plain `http://` GET over a socket of its own, for ``LiveAvatarService``.
///
/// Why not URLSession: on Linux it hands every piece libcurl reads to the delegate's queue, and
/// nothing holds libcurl back while that queue catches up; `cancel()` waits for libcurl's own
/// queue, busy reading, so it takes effect from 50 ms to over 30 s later. Against a fast server
/// an answer cut off at 4 MiB was read, and held, up to gigabytes. Here a byte is read only when
/// there is room for it, so one download holds at most the limit and one 64 KiB buffer.
///
/// The request is HTTP/1.0, so the server sends the body as it is (never in chunks) and closes
/// the connection at its end. The work blocks a thread of its own, off the cooperative pool; the
/// caller's cancellation shuts the socket, which wakes that thread at once.
final class SocketDownload: Sendable {
    private let url: URL
    private let limit: Int
    private let timeout: Duration
    /// The open socket, so that a cancellation can shut it; `nil` before and after.
    private let openSocket = OpenSocket()
    private let isCancelled = Atomic(false)

    init(url: URL, limit: Int, timeout: Duration) {
        self.url = url
        self.limit = limit
        self.timeout = timeout
    }

    /// Downloads the answer, honouring the caller's cancellation.
    func run() async -> CappedDownload.Outcome {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // A thread of its own: a download blocks it for up to the timeout, which would
                // starve the cooperative pool or Dispatch's few shared threads.
                Thread.detachNewThread {
                    continuation.resume(returning: self.download())
                }
            }
        } onCancel: {
            isCancelled.store(true, ordering: .sequentiallyConsistent)
            openSocket.shutDown()
        }
    }

    /// Why a download stopped early.
    private struct Failure: Error {
        let outcome: CappedDownload.Outcome
        init(_ reason: String) { outcome = .failed(reason) }
        init(_ outcome: CappedDownload.Outcome) { self.outcome = outcome }
    }

    private func download() -> CappedDownload.Outcome {
        let deadline = ContinuousClock.now + timeout
        guard let host = url.host(), !host.isEmpty else { return .failed("the URL has no host") }
        let outcome: CappedDownload.Outcome
        do throws(Failure) {
            let descriptor = try openConnection(to: host, port: url.port ?? 80, by: deadline)
            defer { closeSocket(descriptor) }
            var path = url.path(percentEncoded: true)
            if path.isEmpty { path = "/" }
            if let query = url.query(percentEncoded: true) { path += "?" + query }
            // An IPv6 address in brackets, and the port unless it is the default (RFC 9110).
            let hostField =
                (host.contains(":") ? "[\(host)]" : host) + (url.port.map { ":\($0)" } ?? "")
            let request =
                "GET \(path) HTTP/1.0\r\nHost: \(hostField)\r\nAccept: */*\r\nConnection: close\r\n\r\n"
            try sendAll(Array(request.utf8), to: descriptor, by: deadline)
            outcome = try receiveAnswer(from: descriptor, by: deadline)
        } catch {
            outcome = error.outcome
        }
        // A cancellation shuts the socket, which may look like an answer ending early.
        return isCancelled.load(ordering: .sequentiallyConsistent) ? .cancelled : outcome
    }

    // MARK: Connecting and sending

    private func openConnection(to host: String, port: Int, by deadline: ContinuousClock.Instant)
        throws(Failure) -> Int32
    {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        // The name lookup is not bounded by the deadline: avatars come from a known host.
        var addresses: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &addresses) == 0, addresses != nil
        else { throw Failure("the host was not found") }
        defer { freeaddrinfo(addresses) }
        // Each address in turn (`localhost` may name ::1 first, and the server listen on
        // 127.0.0.1 only); the last failure is the one reported.
        var failure = Failure("the host was not found")
        var next = addresses
        while let address = next {
            next = address.pointee.ai_next
            do throws(Failure) {
                return try connect(to: address.pointee, by: deadline)
            } catch {
                if case .cancelled = error.outcome { throw error }
                failure = error
            }
        }
        throw failure
    }

    /// Opens a socket to one address and connects it, by `deadline`.
    private func connect(to address: addrinfo, by deadline: ContinuousClock.Instant)
        throws(Failure) -> Int32
    {
        let descriptor = socket(address.ai_family, address.ai_socktype, address.ai_protocol)
        guard descriptor >= 0 else { throw Failure(Self.describe(errno, doing: "open a socket")) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        #if canImport(Darwin)
            // EPIPE, not SIGPIPE, when the server has gone (Linux: MSG_NOSIGNAL, at each send).
            var on: Int32 = 1
            _ = setsockopt(
                descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        openSocket.set(descriptor)
        let wasCancelled = isCancelled.load(ordering: .sequentiallyConsistent)
        do throws(Failure) {
            if wasCancelled { throw Failure(.cancelled) }
            if connectSocket(descriptor, address.ai_addr, address.ai_addrlen) != 0 {
                guard errno == EINPROGRESS else {
                    throw Failure(Self.describe(errno, doing: "connect"))
                }
                try wait(for: Int16(POLLOUT), on: descriptor, by: deadline)
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                _ = getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
                guard error == 0 else { throw Failure(Self.describe(error, doing: "connect")) }
            }
            return descriptor
        } catch {
            closeSocket(descriptor)
            throw error
        }
    }

    /// Closes `descriptor`, first taking it out of reach of a cancellation (its number may be
    /// reused at once by another download).
    private func closeSocket(_ descriptor: Int32) {
        openSocket.set(nil)
        close(descriptor)
    }

    private func sendAll(
        _ bytes: [UInt8], to descriptor: Int32, by deadline: ContinuousClock.Instant
    ) throws(Failure) {
        var sent = 0
        while sent < bytes.count {
            try wait(for: Int16(POLLOUT), on: descriptor, by: deadline)
            let count = bytes[sent...].withUnsafeBytes {
                send(descriptor, $0.baseAddress, $0.count, Self.noSignal)
            }
            guard count >= 0 else {
                if errno == EAGAIN || errno == EINTR { continue }
                throw Failure(Self.describe(errno, doing: "send the request"))
            }
            sent += count
        }
    }

    // MARK: Receiving, a bounded piece at a time

    private func receiveAnswer(from descriptor: Int32, by deadline: ContinuousClock.Instant)
        throws(Failure) -> CappedDownload.Outcome
    {
        var buffer = [UInt8](repeating: 0, count: 64 * 1_024)
        let (header, start) = try receiveHeader(into: &buffer, from: descriptor, by: deadline)
        let (status, contentLength, location, isChunked) = try Self.parseHeader(header)
        if [301, 302, 303, 307, 308].contains(status), let location {
            return .redirected(to: location)
        }
        if isChunked {
            throw Failure(
                "the server sent its answer in chunks, which an HTTP/1.0 request does not allow")
        }
        if let contentLength, contentLength > limit { return .tooLarge }

        // Then the body, never reading more than one byte past the limit.
        var body = Data(start)
        if let contentLength { body.reserveCapacity(contentLength) }
        while body.count <= limit, body.count < contentLength ?? Int.max {
            let room = min(buffer.count, limit + 1 - body.count)
            let count = try receive(into: &buffer, upTo: room, from: descriptor, by: deadline)
            if count == 0 { break }
            body.append(contentsOf: buffer[..<count])
        }
        if body.count > limit { return .tooLarge }
        if let contentLength, body.count < contentLength {
            throw Failure("the connection was dropped")
        }
        return .finished(body, status: status)
    }

    /// Reads up to the empty line that ends the header (64 KiB at most); returns the header and
    /// the start of the body that came with it.
    private func receiveHeader(
        into buffer: inout [UInt8], from descriptor: Int32, by deadline: ContinuousClock.Instant
    ) throws(Failure) -> (header: ArraySlice<UInt8>, start: ArraySlice<UInt8>) {
        var head: [UInt8] = []
        while head.count <= 64 * 1_024 {
            let count = try receive(into: &buffer, from: descriptor, by: deadline)
            guard count > 0 else { throw Failure("the connection was dropped") }
            head += buffer[..<count]
            // The blank line that ends the header; servers that end lines with a bare LF exist.
            let ends = [Array("\r\n\r\n".utf8), Array("\n\n".utf8)].compactMap {
                head.firstRange(of: $0)?.upperBound
            }
            if let end = ends.min() { return (head[..<end], head[end...]) }
        }
        throw Failure("the server sent a malformed answer")
    }

    /// Reads what has arrived, waiting for it until `deadline`; 0 at the end of the answer.
    private func receive(
        into buffer: inout [UInt8], upTo room: Int? = nil, from descriptor: Int32,
        by deadline: ContinuousClock.Instant
    ) throws(Failure) -> Int {
        while true {
            try wait(for: Int16(POLLIN), on: descriptor, by: deadline)
            let count = buffer.withUnsafeMutableBytes {
                recv(descriptor, $0.baseAddress, min(room ?? $0.count, $0.count), 0)
            }
            if count >= 0 { return count }
            if errno == EAGAIN || errno == EINTR { continue }
            throw Failure(
                errno == ECONNRESET
                    ? "the connection was dropped" : Self.describe(errno, doing: "read the answer"))
        }
    }

    /// Waits until `descriptor` is ready for `events`, or throws a time-out at `deadline`.
    private func wait(
        for events: Int16, on descriptor: Int32, by deadline: ContinuousClock.Instant
    ) throws(Failure) {
        while true {
            if isCancelled.load(ordering: .sequentiallyConsistent) { throw Failure(.cancelled) }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { throw Failure("the request timed out") }
            let milliseconds = left / .milliseconds(1) + 1
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, Int32(clamping: Int(milliseconds)))
            if ready > 0 { return }
            if ready < 0 && errno != EINTR { throw Failure(Self.describe(errno, doing: "wait")) }
        }
    }

    // MARK: The header, and errors in words

    /// `send`'s flags: on Linux, EPIPE rather than SIGPIPE (which ends the process) when the server
    /// has gone; Darwin has the socket option SO_NOSIGPIPE instead.
    #if canImport(Glibc)
        private static let noSignal = Int32(MSG_NOSIGNAL)
    #else
        private static let noSignal: Int32 = 0
    #endif

    /// The status, and the announced length if there is one.
    private static func parseHeader(_ head: ArraySlice<UInt8>) throws(Failure) -> (
        status: Int, contentLength: Int?, location: String?, isChunked: Bool
    ) {
        // "\r\n" is one Character in Swift, so a split on "\n" alone would not cut it.
        let lines = String(decoding: head, as: UTF8.self).split { $0 == "\r\n" || $0 == "\n" }
        let statusWords = lines.first?.split(separator: " ") ?? []
        guard statusWords.count >= 2, statusWords[0].hasPrefix("HTTP/"),
            let status = Int(statusWords[1])
        else { throw Failure("the server sent a malformed answer") }
        var contentLength: Int?
        var location: String?
        var isChunked = false
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let value = parts[1].trimmingCharacters(in: .whitespaces)
            switch parts[0].trimmingCharacters(in: .whitespaces).lowercased() {
            case "content-length":
                guard let length = Int(value), length >= 0 else {
                    throw Failure("the server sent a malformed answer")
                }
                contentLength = length
            case "location":
                location = value
            case "transfer-encoding":
                isChunked = value.lowercased() != "identity"
            default:
                continue
            }
        }
        return (status, contentLength, location, isChunked)
    }

    private static func describe(_ code: Int32, doing action: String) -> String {
        switch code {
        case ECONNREFUSED: "the server refused the connection"
        case ETIMEDOUT: "the request timed out"
        case EMFILE, ENFILE:
            "cannot \(action): the process has no file descriptor left (too many requests at once)"
        default: "cannot \(action): \(String(cString: strerror(code)))"
        }
    }
}

/// The socket a download has open, so that a cancellation on another thread can shut it, and
/// never one closed meanwhile (its number may already belong to another download).
///
/// An `NSLock` rather than a `Mutex`: ThreadSanitizer on Linux cannot see `Mutex`'s ordering (its
/// lock is in an uninstrumented library) and would report the hand-off as a race.
/// `@unchecked Sendable`: `descriptor` is read and written only while `lock` is held.
private final class OpenSocket: @unchecked Sendable {
    private let lock = NSLock()
    private var descriptor: Int32?

    /// Records the socket now open, or `nil` before it is closed.
    func set(_ descriptor: Int32?) {
        lock.withLock { self.descriptor = descriptor }
    }

    /// Shuts the open socket, if any, waking the thread that waits on it.
    func shutDown() {
        lock.withLock {
            if let descriptor { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
    }
}

/// The C library's `connect`, whose name `SocketDownload.connect(to:by:)` hides.
private func connectSocket(
    _ descriptor: Int32, _ address: UnsafeMutablePointer<sockaddr>!, _ length: socklen_t
) -> Int32 {
    connect(descriptor, address, length)
}
