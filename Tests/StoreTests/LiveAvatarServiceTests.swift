import Foundation
import MVCAvatarServiceLive
import MVCModel
import MVCPersistence
import MVCStore
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("The live avatar service")
struct LiveAvatarServiceTests {
    private let ada = address("ada@example.com")
    private let picture = SimulatedAvatarService.picture(for: address("ada@example.com")).netpbmData

    @Test("the address is one percent-encoded path component of the base URL")
    func url() {
        let service = LiveAvatarService(
            baseURL: URL(fileURLWithPath: "/").deletingLastPathComponent())
        let http = LiveAvatarService(
            baseURL: URL(string: "http://127.0.0.1:8000/avatars") ?? service.baseURL)

        #expect(
            http.url(for: address("a.b+c@example.com")).absoluteString
                == "http://127.0.0.1:8000/avatars/a.b+c%40example.com")
    }

    @Test("a file:// folder serves the avatars in it, and a missing file is not found")
    func fileSource() async throws {
        let folder = try TemporaryFolder()
        try picture.write(to: folder.file("ada@example.com"))
        let service = LiveAvatarService(baseURL: folder.url)

        #expect(try await service.avatar(for: ada).data == picture)
        await #expect(throws: AvatarServiceError.notFound(address("grace@example.com"))) {
            try await service.avatar(for: address("grace@example.com"))
        }
    }

    @Test(
        "a real HTTP server on loopback: 200, 404, 500, a slow answer and a dropped connection",
        arguments: HTTPTransport.allCases)
    func httpSource(transport: HTTPTransport) async throws {
        let server = try LoopbackServer(avatar: picture)
        defer { server.stop() }
        // A timeout no answer meets on a loaded machine, but the slow one (held 3 s) runs out.
        func service(_ path: String) -> LiveAvatarService {
            var service = LiveAvatarService(
                baseURL: server.url(path), timeout: path == "slow" ? .seconds(1) : .seconds(30))
            service.httpTransport = transport
            return service
        }

        #expect(try await service("ok").avatar(for: ada).data == picture)
        await #expect(throws: AvatarServiceError.notFound(ada)) {
            try await service("missing").avatar(for: ada)
        }
        await #expect(
            throws: AvatarServiceError.httpStatus(
                500, url: server.url("broken").absoluteString + "/ada%40example.com")
        ) {
            try await service("broken").avatar(for: ada)
        }
        await #expect(
            throws: AvatarServiceError.transport(
                "the request timed out",
                url: server.url("slow").absoluteString + "/ada%40example.com")
        ) {
            try await service("slow").avatar(for: ada)
        }
        do {
            _ = try await service("drop").avatar(for: ada)
            Issue.record("a dropped connection returned an avatar")
        } catch .transport {
        } catch {
            Issue.record("a dropped connection gave \(error), not a transport error")
        }
    }
}

@Suite("The live avatar service against a hostile server")
struct HostileServerTests {
    private let ada = address("ada@example.com")

    @Test(
        "an answer that announces more than the limit is refused at once",
        arguments: HTTPTransport.allCases)
    func announcedTooLarge(transport: HTTPTransport) async throws {
        let server = try LoopbackServer(avatar: Data())
        defer { server.stop() }
        var service = LiveAvatarService(baseURL: server.url("huge"), timeout: .seconds(60))
        service.httpTransport = transport

        await #expect(
            throws: AvatarServiceError.tooLarge(
                limit: LiveAvatarService.defaultMaximumResponseSize,
                url: server.url("huge").absoluteString + "/ada%40example.com")
        ) { try await service.avatar(for: ada) }
    }

    @Test("a server that keeps sending is cut off at the limit", arguments: HTTPTransport.allCases)
    func endlessAnswer(transport: HTTPTransport) async throws {
        let server = try LoopbackServer(avatar: Data())
        defer { server.stop() }
        // A long timeout: the limit must cut the answer off, not the clock (a megabyte through
        // URLSession under ThreadSanitizer, beside the whole suite, once took over 5 s in CI).
        var service = LiveAvatarService(
            baseURL: server.url("endless"), timeout: .seconds(30), maximumResponseSize: 1_000_000)
        service.httpTransport = transport

        await #expect(
            throws: AvatarServiceError.tooLarge(
                limit: 1_000_000, url: server.url("endless").absoluteString + "/ada%40example.com")
        ) { try await service.avatar(for: ada) }
    }

    @Test("plain http follows a redirect, gives up on a loop, and sends a Host with its port")
    func redirectsAndHost() async throws {
        let server = try LoopbackServer(avatar: Data("P1 1 1 1".utf8))
        defer { server.stop() }

        let moved = try await LiveAvatarService(baseURL: server.url("moved")).avatar(for: ada)
        #expect(moved.data == Data("P1 1 1 1".utf8))
        await #expect(throws: AvatarServiceError.self) {
            try await LiveAvatarService(baseURL: server.url("loop")).avatar(for: ada)
        }
        let host = try await LiveAvatarService(baseURL: server.url("host")).avatar(for: ada)
        let port = try #require(server.url("host").port)
        #expect(String(decoding: host.data, as: UTF8.self) == "127.0.0.1:\(port)")
    }

    @Test("an answer in chunks is refused, and a header with bare line feeds is read")
    func chunksAndBareLineFeeds() async throws {
        let server = try LoopbackServer(avatar: Data("P1 1 1 1".utf8))
        defer { server.stop() }

        do {
            _ = try await LiveAvatarService(baseURL: server.url("chunked")).avatar(for: ada)
            Issue.record("a chunked answer was taken as the avatar")
        } catch .transport(let reason, _) {
            #expect(reason.contains("chunks"))
        } catch {
            Issue.record("a chunked answer gave \(error)")
        }
        let bare = try await LiveAvatarService(baseURL: server.url("barelf")).avatar(for: ada)
        #expect(bare.data == Data("P1 1 1 1".utf8))
    }

    @Test("requests beyond the limit in flight wait their turn, and every one is answered")
    func requestsWaitTheirTurn() async throws {
        let server = try LoopbackServer(avatar: Data("P1 1 1 1".utf8))
        defer { server.stop() }
        let service = LiveAvatarService(
            baseURL: server.url("held"), timeout: .seconds(60), maximumConcurrentRequests: 4)

        try await withThrowingTaskGroup { group in
            for index in 0..<20 {
                group.addTask {
                    _ = try await service.avatar(for: address("u\(index)@example.com"))
                }
            }
            try await group.waitForAll()
        }

        let peak = try await LiveAvatarService(baseURL: server.url("peak")).avatar(for: ada)
        #expect(String(decoding: peak.data, as: UTF8.self) == "4")
    }

    @Test("a request cancelled while it waits for its turn ends at once")
    func cancelledWhileWaiting() async throws {
        let server = try LoopbackServer(avatar: Data())
        defer { server.stop() }
        let service = LiveAvatarService(
            baseURL: server.url("hang"), timeout: .seconds(60), maximumConcurrentRequests: 1)
        let first = Task { try await service.avatar(for: ada) }
        // The first holds the one place once the server has its request; the second waits.
        let arrivals = LiveAvatarService(baseURL: server.url("arrivals"))
        #expect(
            await within(seconds: 30) {
                let answer = try? await arrivals.avatar(for: ada)
                return answer.map { String(decoding: $0.data, as: UTF8.self) } == "1"
            })
        let waiting = Task { try await service.avatar(for: address("grace@example.com")) }
        #expect(await within(seconds: 30) { service.requestsWaitingTheirTurn == 1 })

        waiting.cancel()
        await #expect(throws: AvatarServiceError.cancelled) { try await waiting.value }
        first.cancel()
        await #expect(throws: AvatarServiceError.cancelled) { try await first.value }
    }

    @Test(
        "a server that answers a byte at a time is stopped by the timeout",
        arguments: HTTPTransport.allCases)
    func tricklingAnswer(transport: HTTPTransport) async throws {
        let server = try LoopbackServer(avatar: Data())
        defer { server.stop() }
        var service = LiveAvatarService(baseURL: server.url("trickle"), timeout: .seconds(1))
        service.httpTransport = transport
        let clock = ContinuousClock()
        let start = clock.now

        do {
            _ = try await service.avatar(for: ada)
            Issue.record("a trickling answer returned an avatar")
        } catch .transport {
        } catch {
            Issue.record("a trickling answer gave \(error), not a transport error")
        }
        // The trickling server never ends an answer, so without the deadline this would wait for
        // ever; any finite bound proves the deadline. The bound is loose because the task that
        // awaits the answer can wait long for a thread when a sanitizer slows the whole suite.
        #expect(clock.now - start < .seconds(90))
    }

    @Test("a pipe in the folder is a failure at once, not a request that waits for ever")
    func pipeInFolder() async throws {
        let folder = try TemporaryFolder()
        #expect(mkfifo(folder.file("ada@example.com").path, 0o600) == 0)
        let service = LiveAvatarService(baseURL: folder.url, timeout: .seconds(1))

        await #expect(throws: AvatarServiceError.self) { try await service.avatar(for: ada) }
    }

    @Test("a file larger than the limit is refused, not read whole")
    func largeFile() async throws {
        let folder = try TemporaryFolder()
        try Data(count: 2_000).write(to: folder.file("ada@example.com"))
        let service = LiveAvatarService(baseURL: folder.url, maximumResponseSize: 1_000)

        await #expect(throws: AvatarServiceError.self) { try await service.avatar(for: ada) }
    }
}

/// Whether `condition` holds within `seconds`, asked every 10 ms.
private func within(seconds: Int, _ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while await !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return true
}

/// A small HTTP server on 127.0.0.1 (Python's standard library), started and stopped by the test.
///
/// The first path component picks the behaviour: `ok` serves the avatar, `missing` answers 404,
/// `broken` 500, `slow` waits three seconds first, `drop` closes the connection without answering,
/// `huge` announces 100 MiB, `endless` sends without end, `trickle` sends a byte every 0.2 s forever,
/// `flood` sends without end and without pause, `hang` never answers, `mixed` floods for ada and
/// hangs for everyone else, `held` counts the requests it holds at once and answers 0.3 s after
/// it has held four at once (or 30 s), `peak` answers with the most it ever held, `arrivals` with
/// how many `hang` requests arrived, `moved` redirects to `ok`, `loop` redirects to
/// itself, `chunked` answers in chunks, `barelf` ends its header lines with a bare LF, and `host`
/// answers with the `Host` header it was sent.
///
/// The server exits when its standard input closes: when ``stop()`` closes it, or when the test
/// process ends in any way. (`terminate()` alone is not enough: `python3` may be a launcher script
/// whose child would outlive the signal.)
final class LoopbackServer {
    private let process = Process()
    private let input = Pipe()
    private let port: Int
    private let folder: TemporaryFolder

    private static let script = """
        import http.server, os, socketserver, sys, threading, time
        avatar = open(sys.argv[1], 'rb').read()
        def exit_when_stdin_closes():
            sys.stdin.read()
            os._exit(0)
        threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
        lock = threading.Lock()
        in_flight = [0, 0]  # now, most ever
        full = threading.Condition(lock)
        arrivals = [0]
        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args): pass
            def do_GET(self):
                kind = self.path.strip('/').split('/')[0]
                if kind == 'moved':
                    self.send_response(301)
                    self.send_header('Location', '/ok/' + self.path.split('/')[-1])
                    self.send_header('Content-Length', '0')
                    self.end_headers(); return
                if kind == 'loop':
                    self.send_response(302)
                    self.send_header('Location', self.path)
                    self.end_headers(); return
                if kind == 'chunked':
                    self.protocol_version = 'HTTP/1.1'
                    self.send_response(200)
                    self.send_header('Transfer-Encoding', 'chunked')
                    self.end_headers()
                    self.wfile.write(b'4\\r\\nP1 1\\r\\n0\\r\\n\\r\\n'); return
                if kind == 'barelf':
                    self.wfile.write(b'HTTP/1.0 200 OK\\nContent-Length: ' + str(len(avatar)).encode() + b'\\n\\n' + avatar)
                    return
                if kind == 'host':
                    body = self.headers.get('Host', '').encode()
                    self.send_response(200)
                    self.send_header('Content-Length', str(len(body)))
                    self.end_headers()
                    self.wfile.write(body); return
                if kind == 'mixed':
                    kind = 'flood' if 'ada' in self.path else 'hang'
                if kind == 'hang':
                    with lock: arrivals[0] += 1
                    time.sleep(60); return
                if kind == 'held':
                    with full:
                        in_flight[0] += 1
                        in_flight[1] = max(in_flight)
                        full.notify_all()
                        full.wait_for(lambda: in_flight[1] >= 4, timeout=30)
                    time.sleep(0.3)
                    with lock: in_flight[0] -= 1
                    kind = 'ok'
                if kind in ('peak', 'arrivals'):
                    body = str(in_flight[1] if kind == 'peak' else arrivals[0]).encode()
                    self.send_response(200)
                    self.send_header('Content-Length', str(len(body)))
                    self.end_headers()
                    self.wfile.write(body); return
                if kind == 'flood':
                    self.send_response(200)
                    self.end_headers()
                    chunk = b'F' * 65536
                    try:
                        while True: self.wfile.write(chunk)
                    except Exception: return
                if kind == 'drop':
                    self.connection.close(); return
                if kind == 'slow':
                    time.sleep(3)
                if kind == 'huge':
                    self.send_response(200)
                    self.send_header('Content-Length', str(100 * 1024 * 1024))
                    self.end_headers()
                    return
                if kind in ('endless', 'trickle'):
                    self.send_response(200)
                    self.end_headers()
                    try:
                        while True:
                            self.wfile.write(b'P' * (65536 if kind == 'endless' else 1))
                            self.wfile.flush()
                            time.sleep(0.01 if kind == 'endless' else 0.2)
                    except Exception: return
                status = {'ok': 200, 'slow': 200, 'missing': 404, 'broken': 500}.get(kind, 404)
                body = avatar if status == 200 else b'no'
                self.send_response(status)
                self.send_header('Content-Length', str(len(body)))
                self.end_headers()
                try: self.wfile.write(body)
                except Exception: pass
        class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True
            request_queue_size = 1024
        server = Server(('127.0.0.1', 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """

    init(avatar: Data) throws {
        folder = try TemporaryFolder()
        try Data(Self.script.utf8).write(to: folder.file("server.py"))
        try avatar.write(to: folder.file("avatar.ppm"))
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", folder.file("server.py").path, folder.file("avatar.ppm").path,
        ]
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty,
            byte != Data("\n".utf8)
        {
            line.append(byte)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            try? input.fileHandleForWriting.close()
            throw CocoaError(
                .fileReadCorruptFile,
                userInfo: [NSLocalizedDescriptionKey: "the test server did not start"])
        }
        self.port = port
    }

    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)/\(path)") ?? URL(fileURLWithPath: "/")
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        for _ in 0..<200 where process.isRunning { usleep(10_000) }
    }
}
