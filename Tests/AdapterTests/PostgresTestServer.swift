import Foundation
import MVCPostgresStore
import Synchronization

/// The PostgreSQL server the PostgreSQL cases run against.
///
/// Its `postgres://` URL is in `MVCLAYERS_POSTGRES`; without one those cases are skipped, and
/// say how to run them.
enum PostgresTestServer {
    static let url: String? = ProcessInfo.processInfo.environment["MVCLAYERS_POSTGRES"].flatMap {
        $0.isEmpty ? nil : $0
    }

    /// A new table's location on the server (`t_` and random hex: no two tests share one).
    static func newTable() -> URL {
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let text = "\(url ?? "postgres://localhost/none")#\(name.prefix(34))"
        return URL(string: text) ?? URL(fileURLWithPath: "/nonexistent")
    }

    /// The table's location for the adapter.
    static func location(_ url: URL) throws -> PostgresLocation {
        try PostgresLocation(url.absoluteString)
    }

    /// Runs `sql` on a connection of its own, as another program on the server would.
    @discardableResult
    static func run(_ sql: String, _ parameters: [String?] = []) throws -> [[String?]] {
        let connection = try PostgresConnection(settings: url ?? "")
        return try connection.run(sql, parameters)
    }

    /// Runs `Scripts/postgres-server.sh <command>` with `environment` added, on a thread of its
    /// own: a server's start can take many seconds on a loaded machine, and a wait on the main
    /// actor (or on one of the few threads of Swift's shared pool) would hold up every other test
    /// meanwhile and make their clocks run out.
    static func control(_ command: String, environment: [String: String] = [:]) async throws {
        let line = shellLine(command, environment: environment)
        let status = await withCheckedContinuation {
            (continuation: CheckedContinuation<Int32, Never>) in
            Thread.detachNewThread { continuation.resume(returning: system(line)) }
        }
        try checked(status, command, environment: environment)
    }

    /// The same, waited for on the calling thread: for `deinit`, which cannot wait otherwise.
    static func controlNow(_ command: String, environment: [String: String]) throws {
        try checked(
            system(shellLine(command, environment: environment)), command, environment: environment)
    }

    private static func shellLine(_ command: String, environment: [String: String]) -> String {
        let script = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "Scripts/postgres-server.sh")
        // `system`, not `Process`: a `Process` that starts a server is never told it ended, the
        // server keeping the descriptor it watches. The shell execs the script, which closes
        // every descriptor it was given before it starts the server: a server started here
        // must not hold this process's pipes open (a test waiting for one to close would wait
        // for the server's whole life).
        let settings = environment.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        return "exec env \(settings) '\(script.path)' \(command) >/dev/null"
    }

    /// Throws unless `status` is success, with the end of the server's log (why it would not
    /// start, say).
    private static func checked(_ status: Int32, _ command: String, environment: [String: String])
        throws
    {
        guard status != 0 else { return }
        let folder = environment["MVCLAYERS_POSTGRES_FOLDER"] ?? "/tmp/mvclayers-postgres"
        let log = (try? String(contentsOfFile: folder + "/server.log", encoding: .utf8)) ?? ""
        let tail = log.split(separator: "\n").suffix(8).joined(separator: "\n")
        throw OtherProgramFailure(
            description:
                "postgres-server.sh \(command) exited with \(status); the server's log ends:\n\(tail)"
        )
    }
}

/// A server of a test's own, made by `Scripts/postgres-server.sh` in a folder and on a port of
/// its own, for a test that stops it: the shared server's other clients are left alone.
final class PrivateServer {
    private let environment: [String: String]
    /// A new table's location on this server.
    let table: URL

    private init(environment: [String: String], port: Int) {
        self.environment = environment
        table =
            URL(string: "postgres://mvclayers:mvclayers@127.0.0.1:\(port)/mvclayers#attractions")
            ?? URL(fileURLWithPath: "/nonexistent")
    }

    /// Starts a server on a port below the system's ephemeral ports (32768 and up), which a
    /// client's connection may hold at any moment; a port taken all the same is tried again.
    static func start() async throws -> PrivateServer {
        var attempt = 0
        while true {
            let port = Int.random(in: 21_000..<32_000)
            let environment = [
                // A folder of its own: removing it after a failed start stops no other server.
                "MVCLAYERS_POSTGRES_FOLDER": "/tmp/mvclayers-postgres-\(port)-\(UUID().uuidString)",
                "MVCLAYERS_POSTGRES_PORT": String(port),
            ]
            do {
                try await PostgresTestServer.control("start", environment: environment)
            } catch {
                try? await PostgresTestServer.control("remove", environment: environment)
                attempt += 1
                if attempt < 3 { continue }
                throw error
            }
            return PrivateServer(environment: environment, port: port)
        }
    }

    func stop() async throws {
        try await PostgresTestServer.control("stop", environment: environment)
    }
    func start() async throws {
        try await PostgresTestServer.control("start", environment: environment)
    }

    /// Stops the server and deletes its folder, off the calling thread.
    func remove() async {
        try? await PostgresTestServer.control("remove", environment: environment)
        removed.store(true, ordering: .relaxed)
    }

    private let removed = Atomic(false)

    // A test that ended early (it threw) did not remove it: removed here, waited for.
    deinit {
        if !removed.load(ordering: .relaxed) {
            try? PostgresTestServer.controlNow("remove", environment: environment)
        }
    }
}
