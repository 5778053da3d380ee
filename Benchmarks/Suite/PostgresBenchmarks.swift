import CPostgres
import Foundation
import MVCListStore
import MVCModel
import MVCObservation
import MVCPostgresStore
import MVCStore

/// The figures of issue 49: a list in a PostgreSQL table.
///
/// On the server `MVCLAYERS_POSTGRES` names (none: the section says so and is skipped); each
/// figure beside the same work done bare through libpq on the same server, in the same run.
@MainActor
enum PostgresBenchmarks {
    static func run(quick: Bool) async {
        print("\nMVCPostgresStore: a list in a PostgreSQL table")
        guard let server = ProcessInfo.processInfo.environment["MVCLAYERS_POSTGRES"],
            !server.isEmpty
        else {
            print(
                "  skipped: no server (Scripts/postgres-server.sh start; export MVCLAYERS_POSTGRES=$(Scripts/postgres-server.sh url))"
            )
            return
        }
        let count = quick ? 20_000 : 1_000_000
        let edits = quick ? 10 : 100
        let table = "bench_\(UInt32.random(in: 0...UInt32.max))"
        guard let location = try? PostgresLocation("\(server)#\(table)"),
            let bare = BarePostgres(server)
        else {
            print("  cannot reach \(server)")
            return
        }
        defer {
            bare.run("DROP TABLE IF EXISTS \(table), \(table)_tombstones")
            bare.run("DELETE FROM mvclayers_lists WHERE list = '\(table)'")
        }
        let clock = ContinuousClock()
        let filling = clock.now
        do {
            try await PostgresListTable.write(DatabaseBenchmarks.attractions(count), to: location)
        } catch {
            print("  cannot write the list: \(error)")
            return
        }
        print(
            "  writing \(DatabaseBenchmarks.counted(count)) rows (one transaction, 500 rows a statement): \(format(DatabaseBenchmarks.milliseconds(clock.now - filling) / 1e3)) s"
        )
        // Settled first, as a table in use is: the first reads of rows just written set their
        // hint bits (a write of every page), and autovacuum would come by during the figures.
        bare.run("VACUUM (ANALYZE) \(table)")
        await opening(location, bare: bare, table: table, count: count)
        guard let (store, persistence) = try? await AttractionStore.openTable(at: location),
            let (other, otherPersistence) = try? await AttractionStore.openTable(at: location)
        else { return }
        // Each shows its list before its ids are indexed, and takes in the other's commits once
        // they are: what follows measures the two after that.
        await store.finishIndexing()
        await other.finishIndexing()
        await durableEdit(store, persistence, bare: bare, table: table, edits: edits, count: count)
        await otherClientsEdit(
            shownIn: store, madeIn: other, otherPersistence, edits: edits, count: count)
        try? await persistence.close()
        try? await otherPersistence.close()
    }

    /// Opening the list (read whole, decoded, into a store) beside a bare `SELECT` of its rows.
    private static func opening(
        _ location: PostgresLocation, bare: BarePostgres, table: String, count: Int
    ) async {
        let clock = ContinuousClock()
        var opened: [Double] = []
        var selected: [Double] = []
        for _ in 0..<5 {
            let start = clock.now
            guard let (store, persistence) = try? await AttractionStore.openTable(at: location)
            else { return }
            opened.append(DatabaseBenchmarks.milliseconds(clock.now - start))
            // Its ids are indexed on another thread after it is shown: not beside the next.
            await store.finishIndexing()
            try? await persistence.close()
            let bareStart = clock.now
            bare.readAll("SELECT id, name, notes FROM \(table) ORDER BY rank, id")
            selected.append(DatabaseBenchmarks.milliseconds(clock.now - bareStart))
        }
        let (mine, reference) = (
            DatabaseBenchmarks.median(opened), DatabaseBenchmarks.median(selected)
        )
        print("  opening \(DatabaseBenchmarks.counted(count)) rows (medians of 5, alternated)")
        print(
            "      \(format(mine)) ms   vs   a bare SELECT through libpq \(format(reference)) ms: \(format(mine / reference))x (target: at most 1.5x)"
        )
    }

    /// One durable edit (a rename, committed) beside a bare autocommitted `UPDATE` of one row.
    private static func durableEdit(
        _ store: AttractionStore, _ persistence: PostgresPersistence<Attraction>,
        bare: BarePostgres, table: String, edits: Int, count: Int
    ) async {
        let clock = ContinuousClock()
        var mine: [Double] = []
        var reference: [Double] = []
        for edit in 0..<edits {
            guard let element = try? store.element(at: edit * 997 % store.count) else { return }
            let start = clock.now
            var renamed = element
            renamed.notes = "edited \(edit)"
            try? store.replace(element.id, with: renamed)
            try? await persistence.flush()
            mine.append(DatabaseBenchmarks.milliseconds(clock.now - start))
            let bareStart = clock.now
            bare.run(
                "UPDATE \(table) SET notes = $1 WHERE id = $2",
                ["bare \(edit)", Attraction.storedText(of: element.id)])
            reference.append(DatabaseBenchmarks.milliseconds(clock.now - bareStart))
            // The bare update is another client's commit, which this store takes in: waited for,
            // so that the next edit is measured alone, not behind that look.
            let deadline = clock.now + .seconds(5)
            while store.element(withID: element.id)?.notes != "bare \(edit)", clock.now < deadline {
                try? await Task.sleep(for: .milliseconds(1))
            }
        }
        let (median, bareMedian) = (
            DatabaseBenchmarks.median(mine), DatabaseBenchmarks.median(reference)
        )
        print(
            "  one durable edit of \(DatabaseBenchmarks.counted(count)) rows (median of \(edits))")
        print(
            "      \(format(median)) ms   vs   a bare UPDATE through libpq \(format(bareMedian)) ms: \(format(median / bareMedian))x (target: at most 1.5x)"
        )
    }

    /// How soon another client's committed edit shows in this one's store.
    private static func otherClientsEdit(
        shownIn store: AttractionStore, madeIn other: AttractionStore,
        _ persistence: PostgresPersistence<Attraction>, edits: Int, count: Int
    ) async {
        let clock = ContinuousClock()
        var samples: [Double] = []
        for edit in 0..<edits {
            guard let element = try? other.element(at: edit * 991 % other.count) else { return }
            var changed = element
            changed.notes = "from the other client \(edit)"
            try? other.replace(element.id, with: changed)
            try? await persistence.flush()
            let committed = clock.now
            while store.element(withID: element.id) != changed, clock.now - committed < .seconds(30)
            {
                try? await Task.sleep(for: .microseconds(200))
            }
            samples.append(DatabaseBenchmarks.milliseconds(clock.now - committed))
        }
        let worst = samples.max() ?? .nan
        print(
            "  another client's edit of \(DatabaseBenchmarks.counted(count)) rows (\(samples.count) edits)"
        )
        print(
            "      shown after \(format(worst)) ms at worst, \(format(DatabaseBenchmarks.median(samples))) ms median   vs   50 ms (the target): \(format(worst / 50))x, \(worst <= 50 ? "met" : "MISSED")"
        )
    }
}

/// The reference: libpq called by hand, one connection, nothing around it.
final class BarePostgres {
    private let connection: OpaquePointer

    init?(_ settings: String) {
        guard let connection = PQconnectdb(settings), PQstatus(connection) == CONNECTION_OK else {
            return nil
        }
        self.connection = connection
    }

    deinit { PQfinish(connection) }

    /// Runs `sql` with text parameters, autocommitted.
    func run(_ sql: String, _ parameters: [String] = []) {
        let copies = parameters.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        let values = copies.map { UnsafePointer($0) }
        let result = values.withUnsafeBufferPointer {
            PQexecParams(connection, sql, Int32(parameters.count), nil, $0.baseAddress, nil, nil, 0)
        }
        PQclear(result)
    }

    /// Runs `sql` and reads every value of every row as a Swift string, as the adapter must.
    func readAll(_ sql: String) {
        let result = PQexec(connection, sql)
        defer { PQclear(result) }
        var texts: [String] = []
        let (rows, columns) = (PQntuples(result), PQnfields(result))
        texts.reserveCapacity(Int(rows * columns))
        for row in 0..<rows {
            for column in 0..<columns {
                texts.append(String(cString: PQgetvalue(result, row, column)))
            }
        }
        withExtendedLifetime(texts) {}
    }
}
