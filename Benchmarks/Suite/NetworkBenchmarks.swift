import Foundation
import MVCAvatarServiceLive
import MVCModel
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The live avatar service against a loopback server (Python's standard library): the memory one
/// endless answer costs under the default cap, and a "load all" of 1,000 contacts against a server
/// that answers after 50 ms, with the descriptors it holds.
enum NetworkBenchmarks {
    static func run(quick: Bool) async {
        print("\nMVCAvatarServiceLive: a loopback server")
        guard let server = PythonServer() else {
            print("  skipped: python3 is needed for the loopback server")
            return
        }
        defer { server.stop() }
        await endlessAnswer(server)
        await loadAll(server, count: quick ? 200 : 1_000)
    }

    /// The peak resident memory while one answer floods in and another request hangs, above the
    /// memory before it, beside the cap.
    private static func endlessAnswer(_ server: PythonServer) async {
        let service = LiveAvatarService(baseURL: server.url("mixed"), timeout: .seconds(3))
        guard let ada = try? EmailAddress("ada@example.com"),
            let grace = try? EmailAddress("grace@example.com")
        else { return }
        guard let start = residentBytes(), resetPeak() else {
            print("  the memory of an endless answer: needs /proc (Linux)")
            return
        }
        async let flood = try? service.avatar(for: ada)
        async let hang = try? service.avatar(for: grace)
        _ = await (flood, hang)
        let peak = (peakResidentBytes() ?? start) - start
        let cap = LiveAvatarService.defaultMaximumResponseSize
        Comparison(
            name: "peak memory above the start while one answer floods in and another hangs",
            measured: Double(peak) / 1_048_576, reference: Double(cap) / 1_048_576,
            referenceName: "(the cap on one answer; the target is the cap + 16 MiB)", unit: "MiB",
            target: .atMost(Double(cap + 16 * 1_048_576) / Double(cap))
        ).print()
    }

    /// Every contact's avatar at once, as "load all" asks, against a server that answers each
    /// after 50 ms; the reference is the time the limit in flight allows at best.
    private static func loadAll(_ server: PythonServer, count: Int) async {
        let service = LiveAvatarService(baseURL: server.url("delayed"), timeout: .seconds(30))
        let addresses = (0..<count).compactMap { try? EmailAddress("person\($0)@example.com") }
        let watcher = DescriptorWatcher()
        let clock = ContinuousClock()
        let start = clock.now
        let failures = await withTaskGroup(of: Bool.self) { group in
            for address in addresses {
                group.addTask { (try? await service.avatar(for: address)) == nil }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        let elapsed = clock.now - start
        let descriptors = watcher.stop()
        let best = Double(count) / Double(service.maximumConcurrentRequests) * 0.05
        Comparison(
            name:
                "load all of \(count) contacts, 50 ms each, \(service.maximumConcurrentRequests) in flight: \(failures) failed, at most \(descriptors) descriptors open",
            measured: elapsed / .seconds(1), reference: best,
            referenceName: "(the time the limit in flight allows at best)", unit: "s",
            target: .none
        ).print()
    }

    // MARK: Measuring from /proc

    private static func residentBytes() -> Int? { statusField("VmRSS:") }
    private static func peakResidentBytes() -> Int? { statusField("VmHWM:") }

    /// Sets the peak resident memory back to what is resident now (Linux's `clear_refs`).
    private static func resetPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else {
            return false
        }
        defer { try? handle.close() }
        return (try? handle.write(contentsOf: Data("5".utf8))) != nil
    }

    private static func statusField(_ name: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return nil }
        return kilobytes * 1_024
    }
}

/// Counts this process's open descriptors every 2 ms on a thread of its own, keeping the most.
private final class DescriptorWatcher: Sendable {
    private let most = Atomic(0)
    private let isDone = Atomic(false)

    init() {
        Thread.detachNewThread { [self] in
            while !isDone.load(ordering: .relaxed) {
                let open =
                    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.count
                    ?? 0
                most.store(max(most.load(ordering: .relaxed), open), ordering: .relaxed)
                usleep(2_000)
            }
        }
    }

    /// Stops counting; the most descriptors seen open at once.
    func stop() -> Int {
        isDone.store(true, ordering: .relaxed)
        return most.load(ordering: .relaxed)
    }
}

/// A loopback HTTP server in Python's standard library: `mixed` floods ada's answer without end
/// and never answers anyone else; `delayed` answers after 50 ms.
private final class PythonServer {
    private let process = Process()
    private let input = Pipe()
    private let port: Int

    private static let script = """
        import http.server, os, socketserver, sys, threading, time
        threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args): pass
            def do_GET(self):
                if self.path.startswith('/mixed/'):
                    if 'ada' not in self.path:
                        time.sleep(60); return
                    self.send_response(200); self.end_headers()
                    chunk = b'F' * 65536
                    try:
                        while True: self.wfile.write(chunk)
                    except Exception: return
                time.sleep(0.05)
                body = b'P1 1 1 1'
                self.send_response(200)
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

    init?() {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.script]
        process.standardOutput = output
        process.standardInput = input
        guard (try? process.run()) != nil else { return nil }
        let line = output.fileHandleForReading.availableLine()
        guard let port = Int(line) else {
            try? input.fileHandleForWriting.close()
            return nil
        }
        self.port = port
    }

    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)/\(path)") ?? URL(fileURLWithPath: "/")
    }

    func stop() {
        try? input.fileHandleForWriting.close()
    }
}

extension FileHandle {
    /// Reads up to the first newline (without it).
    fileprivate func availableLine() -> String {
        var line = Data()
        while let byte = try? read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            line.append(byte)
        }
        return String(decoding: line, as: UTF8.self)
    }
}
