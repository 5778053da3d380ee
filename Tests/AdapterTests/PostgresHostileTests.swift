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
}
