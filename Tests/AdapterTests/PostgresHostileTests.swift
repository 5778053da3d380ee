import Foundation
import MVCListStore
import MVCModel
import MVCObservation
import MVCPostgresStore
import MVCStore
import Testing

/// A list on a PostgreSQL server against what a hostile or careless program does: text the
/// server cannot hold, a lock held for ever.
@MainActor
@Suite(
    "A list kept on a PostgreSQL server, against hostile input",
    .serialized,
    .enabled(
        if: PostgresTestServer.url != nil,
        "no server: Scripts/postgres-server.sh start, then export MVCLAYERS_POSTGRES=$(Scripts/postgres-server.sh url)"
    ))
struct PostgresHostileTests {
    @Test(
        "a text with a NUL character, which PostgreSQL cannot hold, is refused and told, never cut short; later edits are saved"
    )
    func nulCharacterRefused() async throws {
        let url = PostgresTestServer.newTable()
        let location = try PostgresTestServer.location(url)
        let (store, persistence) = try await ListStore<Book>.openTable(at: location)
        let dune = Book("Dune", pages: 412)
        try store.add(dune)
        try await persistence.flush()

        var messiah = dune
        messiah.title = "Dune Messiah\u{0}, 1969"
        try store.replace(dune.id, with: messiah)
        try await persistence.flush()
        #expect(
            await eventually {
                store.notice.value?.message.contains("holds the NUL character") == true
                    && store.elements.map(\.title) == ["Dune"]
            })
        try store.add(Book("Emma", pages: 474))
        try await persistence.close()

        let kept = try await PostgresListTable<Book>.read(from: location)
        #expect(kept.map(\.title) == ["Dune", "Emma"])
        let other = try PostgresTestServer.location(PostgresTestServer.newTable())
        await #expect {
            try await PostgresListTable.write([Book("A\u{0}B", pages: 1)], to: other)
        } throws: { "\($0)".contains("NUL character") }
    }

    @Test(
        "a primary key dropped by hand while a store is open, then an id written twice, never lists the id twice; reopening refuses the table naming both rows"
    )
    func primaryKeyDroppedWhileOpen() async throws {
        let location = try PostgresTestServer.location(PostgresTestServer.newTable())
        let (store, persistence) = try await AttractionStore.openTable(at: location)
        let (louvre, orsay) = (Attraction(name: "Louvre"), Attraction(name: "Orsay"))
        try store.add(louvre)
        try store.add(orsay)
        try await persistence.flush()

        let table = "\"\(location.table)\""
        let key =
            try PostgresTestServer.run(
                "SELECT conname FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'p'",
                [table]
            ).first?.first ?? nil
        try PostgresTestServer.run("ALTER TABLE \(table) DROP CONSTRAINT \"\(key ?? "")\"")
        try PostgresTestServer.run(
            "INSERT INTO \(table) (id, rank, name, notes) SELECT id, (SELECT max(rank) + 1000 FROM \(table)), 'Louvre again', '' FROM \(table) WHERE name = 'Louvre'"
        )
        // Taken in as Louvre's row changed: one row for the id, wherever it is.
        #expect(await eventually { store.elements.contains { $0.name == "Louvre again" } })
        #expect(store.elements.count == 2)
        #expect(store.position(of: orsay.id) != nil)
        try store.replace(orsay.id, with: Attraction(id: orsay.id, name: "Musée d'Orsay"))
        try await persistence.close()

        await #expect {
            try await AttractionStore.openTable(at: location)
        } throws: { error in
            "\(error)".contains("row 3: attraction \(louvre.id): its id is row 1's too")
        }
        try PostgresTestServer.run("DELETE FROM \(table) WHERE name = 'Louvre again'")
        let (reopened, again) = try await AttractionStore.openTable(at: location)
        #expect(reopened.elements.map(\.name) == ["Louvre", "Musée d'Orsay"])
        #expect(reopened.position(of: louvre.id) == 0)
        #expect(reopened.position(of: orsay.id) == 1)
        try await again.close()
    }

    @Test(
        "a client opens a list while another session holds a long read of its table, without waiting for it"
    )
    func openingBesideALongRead() async throws {
        let location = try PostgresTestServer.location(PostgresTestServer.newTable())
        let (store, persistence) = try await AttractionStore.openTable(at: location)
        try store.add(Attraction(name: "Louvre"))
        try await persistence.close()
        let reader = try PostgresConnection(settings: PostgresTestServer.url ?? "")
        // The server ends the read after 10 s, should the opening wait for it.
        try reader.run("SET idle_in_transaction_session_timeout = '10s'")
        try reader.run("BEGIN ISOLATION LEVEL REPEATABLE READ")
        try reader.run("SELECT count(*) FROM \"\(location.table)\"")

        let function = "SELECT xmin::text FROM pg_proc WHERE proname = 'mvclayers_track'"
        let written = try PostgresTestServer.run(function)
        let start = ContinuousClock.now
        let (again, other) = try await AttractionStore.openTable(at: location)
        #expect(ContinuousClock.now - start < .seconds(5), "the opening waited for the read")
        #expect(again.elements.map(\.name) == ["Louvre"])
        #expect(try PostgresTestServer.run(function) == written, "the opening rewrote the trigger")
        try await other.close()
        _ = try? reader.run("COMMIT")
    }

    @Test(
        "a field's column dropped by hand is made again at the next opening, and edits to it are saved"
    )
    func droppedColumnMadeAgain() async throws {
        let location = try PostgresTestServer.location(PostgresTestServer.newTable())
        let louvre = Attraction(name: "Louvre", notes: "Mona Lisa")
        let (store, persistence) = try await AttractionStore.openTable(at: location)
        try store.add(louvre)
        try await persistence.close()
        try PostgresTestServer.run("ALTER TABLE \"\(location.table)\" DROP COLUMN notes")

        let (again, reopened) = try await AttractionStore.openTable(at: location)
        #expect(again.elements.map(\.notes) == [""])
        try again.replace(louvre.id, with: Attraction(id: louvre.id, name: "Louvre", notes: "Nike"))
        try await reopened.close()
        let kept = try await PostgresListTable<Attraction>.read(from: location)
        #expect(kept.map(\.notes) == ["Nike"])
    }

    @Test(
        "an edit that waits past its lock wait for another session's lock is told, then saved once the lock is let go"
    )
    func stalledByAnotherSessionsLock() async throws {
        let table = PostgresTestServer.newTable()
        let (store, persistence) = try await AttractionStore.openTable(
            at: PostgresTestServer.location(table))
        try store.add(Attraction(name: "Louvre"))
        try await persistence.flush()
        try await persistence.close()
        // A wait of 0.3 s, set in the URL as libpq's options (it yields to them).
        let impatient = try #require(
            URL(
                string: table.absoluteString.replacingOccurrences(
                    of: "#", with: "?options=-c%20lock_timeout%3D300#")))
        // Opening waits its turn to make the shared tables (one client at a time): under a 0.3 s
        // wait, another test's opening can make it give up. Not what this test is about: tried
        // again.
        var opened: (store: AttractionStore, persistence: PostgresPersistence<Attraction>)?
        for _ in 0..<50 where opened == nil {
            opened = try? await AttractionStore.openTable(
                at: PostgresTestServer.location(impatient))
            if opened == nil { try await Task.sleep(for: .milliseconds(100)) }
        }
        let (here, writer) = try #require(opened)
        let holder = try PostgresConnection(settings: PostgresTestServer.url ?? "")
        try holder.run("BEGIN")
        try holder.run(
            "SELECT * FROM mvclayers_lists WHERE list = $1 FOR UPDATE",
            [try PostgresTestServer.location(table).table])

        try here.add(Attraction(name: "Orsay"))
        #expect(
            await eventually {
                if case .failed(let error, _) = here.saving.value {
                    return "\(error)".contains("kept the list locked")
                }
                return false
            })
        try holder.run("COMMIT")
        try await writer.flush()
        #expect(here.saving.value == .saved)
        try await writer.close()
        let kept = try await PostgresListTable<Attraction>.read(
            from: PostgresTestServer.location(table))
        #expect(kept.map(\.name) == ["Louvre", "Orsay"])
    }

    @Test(
        "text travels as UTF-8 whatever client encoding the URL asks for: a name LATIN1 cannot hold is saved, and another program reads it as written"
    )
    func textAsUTF8WhateverTheURLSays() async throws {
        let table = PostgresTestServer.newTable()
        let name = try #require(table.fragment)
        let settings = try #require(PostgresTestServer.url) + "?client_encoding=LATIN1"
        let location = try PostgresLocation(settings + "#" + name)
        let (store, persistence) = try await AttractionStore.openTable(at: location)
        try store.add(Attraction(name: "Café Zürich 🚲"))
        try await persistence.close()

        let stored = try PostgresTestServer.run("SELECT name FROM \"\(name)\"")
        #expect(stored == [["Café Zürich 🚲"]])
        try PostgresTestServer.run("UPDATE \"\(name)\" SET name = 'Musée d’Orsay'")
        let read = try await PostgresListTable<Attraction>.read(from: location)
        #expect(read.map(\.name) == ["Musée d’Orsay"])
    }
}
