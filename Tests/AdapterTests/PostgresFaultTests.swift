import Foundation
import MVCListStore
import MVCModel
import MVCObservation
import MVCPostgresStore
import MVCStore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A list on a PostgreSQL server, as a client sees it: with the server's faults, each made for
/// real (the server stopped, a connection ended by the server, a client killed).
@MainActor
@Suite(
    "A list kept on a PostgreSQL server",
    .serialized,
    .enabled(
        if: PostgresTestServer.url != nil,
        "no server: Scripts/postgres-server.sh start, then export MVCLAYERS_POSTGRES=$(Scripts/postgres-server.sh url)"
    ))
struct PostgresFaultTests {
    private func open(_ url: URL, listening: Bool = true) async throws -> (
        AttractionStore, PostgresPersistence<Attraction>
    ) {
        try await AttractionStore.openTable(
            at: PostgresTestServer.location(url), listening: listening)
    }

    @Test("an edit made while the server is down is queued, told, and saved once it is back")
    func serverRestarted() async throws {
        let server = try await PrivateServer.start()
        let url = server.table
        let (here, persistence) = try await open(url)
        let (there, other) = try await open(url)
        try here.add(Attraction(name: "Louvre"))
        try await persistence.flush()
        #expect(await eventually { there.elements.map(\.name) == ["Louvre"] })

        try await server.stop()
        try here.add(Attraction(name: "Orsay"))
        let told = await eventually {
            if case .failed(let error, _) = here.saving.value {
                return error.description.contains("the server cannot be reached")
            }
            return false
        }
        try await server.start()

        #expect(told, "the status never said the server cannot be reached")
        try await persistence.flush()
        #expect(here.saving.value == .saved)
        #expect(await eventually { there.elements.map(\.name) == ["Louvre", "Orsay"] })
        let stored = try await PostgresListTable<Attraction>.read(
            from: PostgresTestServer.location(url))
        #expect(stored.map(\.name) == ["Louvre", "Orsay"])
        try await persistence.close()
        try await other.close()
        await server.remove()
    }

    @Test("a commit made while a client's listening connection was cut is seen once it reconnects")
    func missedNotification() async throws {
        let url = PostgresTestServer.newTable()
        let (here, persistence) = try await open(url)
        let (there, other) = try await open(url)
        let table = try PostgresTestServer.location(url).table

        try PostgresTestServer.run(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = $1",
            ["LISTEN \"mvclayers.\(table)\""])
        try here.add(Attraction(name: "Louvre"))
        try await persistence.flush()

        #expect(await eventually { there.elements.map(\.name) == ["Louvre"] })
        try await persistence.close()
        try await other.close()
    }

    @Test("a write whose connection is cut mid-transaction is written once, on a new connection")
    func connectionCutMidTransaction() async throws {
        let url = PostgresTestServer.newTable()
        let table = try PostgresTestServer.location(url).table
        let (here, persistence) = try await open(url, listening: false)
        // Another program holds the list's counter, so the write waits inside its transaction.
        let blocker = Process()
        blocker.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        blocker.arguments = [
            "psql", PostgresTestServer.url ?? "", "-X", "-q", "-c",
            "BEGIN; SELECT 1 FROM mvclayers_lists WHERE list = '\(table)' FOR UPDATE; SELECT pg_sleep(2); COMMIT;",
        ]
        blocker.standardOutput = FileHandle.nullDevice
        try blocker.run()
        try await Task.sleep(for: .milliseconds(500))
        try here.add(Attraction(name: "Louvre"))
        try await Task.sleep(for: .milliseconds(300))
        try PostgresTestServer.run(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'SELECT last_change, epoch, version%' AND cardinality(pg_blocking_pids(pid)) > 0"
        )

        // The cut is told, and the edit tried again until it commits, once.
        #expect(await eventually { here.saving.value == .saved })
        let stored = try PostgresTestServer.run("SELECT name FROM \"\(table)\"")
        #expect(stored == [["Louvre"]])
        while blocker.isRunning { try await Task.sleep(for: .milliseconds(10)) }
        try await persistence.close()
    }

    @Test("an edit acknowledged before its client is killed with SIGKILL is on the server")
    func killedClient() async throws {
        let url = PostgresTestServer.newTable()
        let output = Pipe()
        let writer = Process()
        writer.executableURL = try executable(named: "other-process")
        writer.arguments = ["--postgres", url.absoluteString, "1"]
        writer.standardOutput = output
        try writer.run()
        let lines = LineReader(output.fileHandleForReading)
        var saved: [Int] = []
        while saved.count < 5, let line = await lines.next() {
            if let edit = Int(line.dropFirst("saved ".count)) { saved.append(edit) }
        }
        kill(writer.processIdentifier, SIGKILL)
        while let line = await lines.next() {
            if let edit = Int(line.dropFirst("saved ".count)) { saved.append(edit) }
        }

        let names = Set(
            try await PostgresListTable<Attraction>.read(from: PostgresTestServer.location(url))
                .map(\.name))
        #expect(saved.count >= 5)
        #expect(saved.filter { !names.contains("edit \($0)") } == [])
    }

    @Test(
        "two clients' edits of different fields of one row both stand; of one field, the first committed stands, told"
    )
    func sameRowTwoClients() async throws {
        let url = PostgresTestServer.newTable()
        let (here, persistence) = try await open(url, listening: false)
        try here.add(Attraction(name: "Louvre", notes: "paintings"))
        try await persistence.flush()
        let (there, other) = try await open(url, listening: false)
        let id = try here.element(at: 0).id

        // Different fields, neither client having seen the other's edit: both stand, whichever
        // commits first.
        try here.replace(id, with: Attraction(id: id, name: "Le Louvre", notes: "paintings"))
        try there.replace(id, with: Attraction(id: id, name: "Louvre", notes: "sculptures"))
        try await persistence.flush()
        try await other.flush()
        persistence.lookForChanges()
        other.lookForChanges()
        let both = [Attraction(id: id, name: "Le Louvre", notes: "sculptures")]
        #expect(await eventually { here.elements == both && there.elements == both })
        #expect(try await stored(url) == both)

        // One field, the other client not having looked: the edit committed first was
        // acknowledged, so it stands; the other is told.
        try here.replace(id, with: Attraction(id: id, name: "Grand Louvre", notes: "sculptures"))
        try await persistence.flush()
        try there.replace(
            id, with: Attraction(id: id, name: "Musée du Louvre", notes: "sculptures"))
        try await other.flush()
        #expect(try await stored(url).map(\.name) == ["Grand Louvre"])
        #expect(await eventually { there.elements.map(\.name) == ["Grand Louvre"] })
        // Told at the look that brings the row in, a moment after the row shows.
        #expect(
            await eventually { there.notice.value?.message.contains("Grand Louvre") == true })
        try await persistence.close()
        try await other.close()
    }

    private func stored(_ url: URL) async throws -> [Attraction] {
        try await PostgresListTable<Attraction>.read(from: PostgresTestServer.location(url))
    }

    @Test("a row deleted by one client and edited by another is kept with the edit, and told")
    func deleteAgainstEdit() async throws {
        let url = PostgresTestServer.newTable()
        let (here, persistence) = try await open(url, listening: false)
        try here.add(Attraction(name: "Louvre"))
        try await persistence.flush()
        let (there, other) = try await open(url, listening: false)
        let id = try here.element(at: 0).id

        _ = try here.delete(at: 0)
        try await persistence.flush()
        try there.replace(id, with: Attraction(id: id, name: "Louvre", notes: "open late"))
        try await other.flush()

        #expect(there.notice.value?.message.contains("deleted in another process") == true)
        persistence.lookForChanges()
        #expect(await eventually { here.elements.map(\.notes) == ["open late"] })
        try await persistence.close()
        try await other.close()
    }

    @Test("a row another program wrote that breaks the rules is skipped and told")
    func brokenRowSkipped() async throws {
        let url = PostgresTestServer.newTable()
        let table = try PostgresTestServer.location(url).table
        let (here, persistence) = try await open(url)
        try PostgresTestServer.run(
            "INSERT INTO \"\(table)\" (id, rank, name, notes) VALUES ($1, 0, '', 'x')",
            [UUID().uuidString])
        try PostgresTestServer.run(
            "INSERT INTO \"\(table)\" (id, rank, name, notes) VALUES ($1, 1, 'Orsay', '')",
            [UUID().uuidString])

        #expect(await eventually { here.elements.map(\.name) == ["Orsay"] })
        #expect(here.notice.value?.message.contains("skipped a row another program wrote") == true)
        try await persistence.close()
    }

    @Test("a refused password, a missing database and a bad table name each say what to fix")
    func refusals() async throws {
        let url = try #require(PostgresTestServer.url)
        let wrong = url.replacingOccurrences(of: ":mvclayers@", with: ":not-the-password@")
        await #expect {
            _ = try await AttractionStore.openTable(at: PostgresLocation(wrong + "#t"))
        } throws: { error in
            let text = "\(error)"
            return text.contains("password authentication failed")
                && !text.contains("not-the-password")
        }
        let database = try #require(url.range(of: "/", options: .backwards))
        let missing = url[..<database.lowerBound] + "/no_such_database"
        await #expect {
            _ = try await AttractionStore.openTable(at: PostgresLocation(missing + "#t"))
        } throws: { error in
            "\(error)".contains("database \"no_such_database\" does not exist")
        }
        #expect {
            _ = try PostgresLocation(url + "#Robert'); DROP TABLE x;--")
        } throws: { error in
            "\(error)".contains("is not 1 to 40 lowercase letters")
        }
    }

    @Test("a list whose table another program dropped is refused, saying how to start again")
    func droppedTable() async throws {
        let url = PostgresTestServer.newTable()
        let table = try PostgresTestServer.location(url).table
        let (_, persistence) = try await open(url, listening: false)
        try await persistence.close()
        try PostgresTestServer.run("DROP TABLE \"\(table)\"")

        await #expect {
            _ = try await open(url)
        } throws: { error in
            "\(error)".contains("the table is gone; delete its row there to start again")
        }
    }

    @Test(
        "a list of another kind, of a newer layout, or missing is refused, and nothing is written")
    func refusedLists() async throws {
        let url = PostgresTestServer.newTable()
        let location = try PostgresTestServer.location(url)
        await #expect {
            _ = try await PostgresListTable<Attraction>.read(from: location)
        } throws: { error in
            "\(error)".contains("there is no such list")
        }
        try await PostgresListTable.write([Attraction(name: "Louvre")], to: location)
        await #expect {
            try await PostgresListTable.write([Attraction(name: "Orsay")], to: location)
        } throws: { error in
            "\(error)".contains("already there; it was left as it is")
        }

        try PostgresTestServer.run(
            "UPDATE mvclayers_lists SET version = 99 WHERE list = $1", [location.table])
        await #expect {
            _ = try await open(url)
        } throws: { error in
            "\(error)".contains("format version 99")
        }
        try PostgresTestServer.run(
            "UPDATE mvclayers_lists SET version = 1, kind = 'switches' WHERE list = $1",
            [location.table])
        await #expect {
            _ = try await open(url)
        } throws: { error in
            "\(error)".contains("it holds switches, not attractions")
        }
        #expect(
            try PostgresTestServer.run("SELECT name FROM \"\(location.table)\"") == [["Louvre"]])
    }

    @Test("a location that is not a postgres:// URL, or names a table too long, says what to write")
    func badLocations() {
        #expect {
            _ = try PostgresLocation("http://user:secret@example.com/db#t")
        } throws: { error in
            let text = "\(error)"
            return text.contains("it is not a postgres:// URL") && !text.contains("secret")
        }
        #expect {
            _ = try PostgresLocation("postgres://localhost/db#" + String(repeating: "a", count: 41))
        } throws: { error in
            "\(error)".contains("1 to 40 lowercase letters")
        }
        #expect(throws: Never.self) { _ = try PostgresLocation("postgresql://localhost/db") }
    }

    @Test("closing while the server is down gives up after its patience, saying how many edits")
    func closingWithoutTheServer() async throws {
        let server = try await PrivateServer.start()
        let (store, persistence) = try await open(server.table)
        try await server.stop()
        try store.add(Attraction(name: "Louvre"))

        await #expect {
            try await persistence.close(patience: .milliseconds(500))
        } throws: { error in
            "\(error)".contains("the server cannot be reached")
                && "\(error)".contains("1 edit was not saved")
        }
        await server.remove()
    }

    @Test("rows moved into one gap again and again are renumbered, and keep their order")
    func renumbering() async throws {
        let url = PostgresTestServer.newTable()
        let (store, persistence) = try await open(url, listening: false)
        for name in ["A", "B", "C"] { try store.add(Attraction(name: name)) }
        try await persistence.flush()
        // Each move halves the gap between the first two rows: after 32 there is none left.
        for _ in 0..<40 {
            try store.move(from: 2, to: 1)
            try await persistence.flush()
        }
        let stored = try await stored(url)
        #expect(stored.map(\.name) == store.elements.map(\.name))
        try await persistence.close()
    }
}
