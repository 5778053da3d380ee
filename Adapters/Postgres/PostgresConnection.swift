import CPostgres
import Foundation
import MVCListStore

/// Why a call to the server failed: it could not be reached (a later try may work), or it
/// answered with an error.
package struct PostgresFailure: Error, Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// No connection, a lost one, or a server starting up or shutting down.
        case unreachable
        /// The server answered, and refused: a password, a database, a permission, a statement.
        case refused
    }

    package var kind: Kind
    /// libpq's message, on one line (it names no password: libpq never prints one).
    package var message: String
    /// The SQLSTATE of a refused statement.
    package var state: String?
}

/// One libpq connection, used by one actor at a time: statements with every value a bound
/// parameter, results read as text.
package final class PostgresConnection {
    private let handle: OpaquePointer
    /// The statements a pipeline sent, prepared on the server once each (by their text): a
    /// write's statements are the same each time, and parsing and planning them again would be
    /// a good part of an edit's time.
    private var preparedNames: [String: String] = [:]

    /// Connects with `settings` (a `postgres://` URL, or libpq's `key=value` words), completed by
    /// libpq's own sources: the `PG*` variables, `.pgpass`, `sslmode`.
    package init(settings: String) throws(PostgresFailure) {
        guard let handle = Self.connect(settings) else {
            throw PostgresFailure(
                kind: .unreachable, message: "libpq could not allocate a connection")
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = Self.message(of: handle)
            PQfinish(handle)
            throw PostgresFailure(kind: Self.kind(ofConnectionFailure: message), message: message)
        }
        // Text both ways as UTF-8, whatever the database's encoding, `PGCLIENTENCODING` or the
        // URL say: Swift's strings are UTF-8, and text in another encoding would be read, and
        // written back, altered.
        guard PQsetClientEncoding(handle, "UTF8") == 0 else {
            let message = Self.message(of: handle)
            PQfinish(handle)
            throw PostgresFailure(
                kind: .refused, message: "it cannot send text as UTF-8: \(message)")
        }
        self.handle = handle
        // Notices (a table already there, say) are the server's chatter, not the user's business.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
    }

    deinit { PQfinish(handle) }

    /// Defaults for a network that fails; each yields to the URL and to libpq's `PG*` variables.
    ///
    /// Connecting gives up after a minute (libpq's own default waits as long as the system does;
    /// a loaded server can take seconds to answer), TCP keepalives find a server that went silent
    /// within about half a minute, and a statement waits at most 5 s for a lock another session
    /// holds (a list's writer holds it for milliseconds: longer is a stuck session, and the edit
    /// is told as failed, then tried again, as SQLite's busy wait does).
    private static let defaults = [
        ("connect_timeout", "PGCONNECT_TIMEOUT", "60"), ("keepalives_idle", nil, "10"),
        ("keepalives_interval", nil, "5"), ("keepalives_count", nil, "3"),
        ("options", "PGOPTIONS", "-c lock_timeout=5000"),
    ]

    private static func connect(_ settings: String) -> OpaquePointer? {
        let environment = ProcessInfo.processInfo.environment
        let chosen = defaults.filter { $0.1.map { environment[$0] == nil } ?? true }
        // The defaults first, the settings (expanded as a URL or words) after: later wins.
        let keys = chosen.map { strdup($0.0) } + [strdup("dbname"), nil]
        let values = chosen.map { strdup($0.2) } + [strdup(settings), nil]
        defer { for pointer in keys + values { free(pointer) } }
        let constKeys = keys.map { UnsafePointer($0) }
        let constValues = values.map { UnsafePointer($0) }
        return constKeys.withUnsafeBufferPointer { keyBuffer in
            constValues.withUnsafeBufferPointer { valueBuffer in
                PQconnectdbParams(keyBuffer.baseAddress, valueBuffer.baseAddress, 1)
            }
        }
    }

    /// Whether the connection was lost (a later statement would fail at once).
    var isLost: Bool { PQstatus(handle) != CONNECTION_OK }

    /// The socket to wait on for notifications.
    var socket: Int32 { PQsocket(handle) }

    /// Runs `sql` with `parameters` bound to `$1`, `$2`… (`nil` is SQL's NULL), and returns the
    /// rows it gives, each column as text (`nil`: NULL).
    @discardableResult
    package func run(_ sql: String, _ parameters: [String?] = []) throws(PostgresFailure)
        -> [[String?]]
    {
        let copies = parameters.map { $0.flatMap { strdup($0) } }
        defer { for copy in copies { free(copy) } }
        let values = copies.map { UnsafePointer($0) }
        let result = values.withUnsafeBufferPointer {
            PQexecParams(handle, sql, Int32(parameters.count), nil, $0.baseAddress, nil, nil, 0)
        }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK: return []
        case PGRES_TUPLES_OK: return Self.rows(of: result)
        default: throw failure(of: result)
        }
    }

    /// Runs `statements` in order in one round trip (libpq's pipeline mode), each with its
    /// parameters bound; returns each one's rows.
    ///
    /// - Throws: The first statement's failure; the server skips the statements after it.
    func pipelined(_ statements: [(sql: String, parameters: [String?])]) throws(PostgresFailure)
        -> [[[String?]]]
    {
        let names = try statements.map { statement throws(PostgresFailure) in
            try prepared(statement.sql, parameters: statement.parameters.count)
        }
        guard PQenterPipelineMode(handle) == 1 else { throw lost() }
        defer { PQexitPipelineMode(handle) }
        for (statement, name) in zip(statements, names) {
            let copies = statement.parameters.map { $0.flatMap { strdup($0) } }
            defer { for copy in copies { free(copy) } }
            let values = copies.map { UnsafePointer($0) }
            let sent = values.withUnsafeBufferPointer {
                PQsendQueryPrepared(handle, name, Int32(values.count), $0.baseAddress, nil, nil, 0)
            }
            guard sent == 1 else { throw lost() }
        }
        guard PQpipelineSync(handle) == 1 else { throw lost() }
        var results: [[[String?]]] = []
        var first: PostgresFailure?
        for _ in statements {
            guard let result = PQgetResult(handle) else { throw lost() }
            switch PQresultStatus(result) {
            case PGRES_TUPLES_OK: results.append(Self.rows(of: result))
            case PGRES_COMMAND_OK, PGRES_PIPELINE_ABORTED: results.append([])
            default:
                results.append([])
                if first == nil { first = failure(of: result) }
            }
            PQclear(result)
            // Each statement's results end with a null one.
            while let extra = PQgetResult(handle) { PQclear(extra) }
        }
        // The sync's own result.
        if let sync = PQgetResult(handle) { PQclear(sync) }
        if let first { throw first }
        return results
    }

    private func lost() -> PostgresFailure {
        PostgresFailure(kind: .unreachable, message: Self.message(of: handle))
    }

    /// Runs `sql` (inside a transaction) and hands `hand` its rows a batch at a time: each row's
    /// first column as its id, the other columns as its texts.
    ///
    /// The rows come through a cursor, a batch per fetch, so a batch is decoded on the other cores
    /// while the next is on its way, rather than after the last row arrived.
    func rows(_ sql: String, handing hand: (consuming RowBatch) -> Void) throws(PostgresFailure) {
        try run("DECLARE mvclayers_rows NO SCROLL CURSOR FOR \(sql)")
        let fetch = "FETCH FORWARD \(RowBatch.capacity) FROM mvclayers_rows"
        while true {
            let result = PQexec(handle, fetch)
            defer { PQclear(result) }
            guard PQresultStatus(result) == PGRES_TUPLES_OK else { throw failure(of: result) }
            let (count, columns) = (PQntuples(result), PQnfields(result))
            var batch = RowBatch(fields: max(Int(columns) - 1, 0), rows: Int(count))
            for row in 0..<count {
                for column in 0..<columns {
                    // The text's bytes, as libpq holds them: no string is made on this thread.
                    let value =
                        PQgetisnull(result, row, column) == 1
                        ? nil : PQgetvalue(result, row, column)
                    batch.append(
                        value.map {
                            UnsafeBufferPointer(
                                start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self),
                                count: Int(PQgetlength(result, row, column)))
                        })
                }
            }
            if count > 0 { hand(batch) }
            if count < RowBatch.capacity { break }
        }
        try run("CLOSE mvclayers_rows")
    }

    /// Runs `body` in a transaction: committed if it returns, rolled back if it throws.
    func transaction<Value>(
        _ begin: String = "BEGIN", _ body: () throws -> Value
    ) throws -> Value {
        try run(begin)
        do {
            let value = try body()
            try run("COMMIT")
            return value
        } catch {
            if !isLost { _ = try? run("ROLLBACK") }
            throw error
        }
    }

    /// The name `sql` is prepared under on this connection, preparing it the first time.
    private func prepared(_ sql: String, parameters: Int) throws(PostgresFailure) -> String {
        if let name = preparedNames[sql] { return name }
        let name = "mvclayers_\(preparedNames.count)"
        let result = PQprepare(handle, name, sql, Int32(parameters), nil)
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else { throw failure(of: result) }
        preparedNames[sql] = name
        return name
    }

    /// The server process of each notification that arrived since the last call (reading what
    /// the socket holds): the session whose commit sent it.
    func notifications() throws(PostgresFailure) -> [Int32] {
        guard PQconsumeInput(handle) == 1 else {
            throw PostgresFailure(kind: .unreachable, message: Self.message(of: handle))
        }
        var senders: [Int32] = []
        while let notification = PQnotifies(handle) {
            senders.append(notification.pointee.be_pid)
            PQfreemem(notification)
        }
        return senders
    }

    /// This connection's server process, which the notifications its commits send name.
    var serverProcess: Int32 { PQbackendPID(handle) }

    private static func rows(of result: OpaquePointer?) -> [[String?]] {
        let count = PQntuples(result)
        let columns = PQnfields(result)
        var rows: [[String?]] = []
        rows.reserveCapacity(Int(count))
        for row in 0..<count {
            rows.append(
                (0..<columns).map { column in
                    PQgetisnull(result, row, column) == 1
                        ? nil : String(cString: PQgetvalue(result, row, column))
                })
        }
        return rows
    }

    private func failure(of result: OpaquePointer?) -> PostgresFailure {
        if isLost { return PostgresFailure(kind: .unreachable, message: Self.message(of: handle)) }
        let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
        let text = PQresultErrorMessage(result).map { String(cString: $0) } ?? ""
        // 57P01-03: the server is shutting down or cannot take connections now.
        let kind: PostgresFailure.Kind =
            state?.hasPrefix("57P") == true || state?.hasPrefix("08") == true
            ? .unreachable : .refused
        return PostgresFailure(kind: kind, message: Self.oneLine(text), state: state)
    }

    private static func message(of handle: OpaquePointer) -> String {
        oneLine(PQerrorMessage(handle).map { String(cString: $0) } ?? "")
    }

    /// A failed connection is refused if the server answered (a `FATAL` message: a password, a
    /// role, a database), unless it said it is starting up or shutting down.
    private static func kind(ofConnectionFailure message: String) -> PostgresFailure.Kind {
        let passing = ["starting up", "shutting down", "in recovery", "too many clients"]
        guard message.contains("FATAL"), !passing.contains(where: message.contains) else {
            return .unreachable
        }
        return .refused
    }

    private static func oneLine(_ text: String) -> String {
        let lines = text.split(whereSeparator: \.isNewline).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        let message = lines.filter { !$0.isEmpty }.joined(separator: "; ")
        return message.isEmpty ? "no reason given" : message
    }
}
