import Foundation

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
