import Foundation
import MVCListStore
import MVCModel
import MVCObservation
import MVCSQLiteStore
import MVCStore
import Testing

/// The names a database is opened by: links, `..`, a second name.
///
/// SQLite follows links as the system does, and names its log after the file it found; a store
/// that followed a path differently, or kept a file that another name now leads elsewhere from,
/// would write where no other program looks. Each case from a hostile run of the sample.
@MainActor
@Suite("The SQLite store and the names of its file")
struct SQLiteNamesTests {
    @Test("a path with .. after a linked folder opens the file SQLite and the system find there")
    func parentOfALinkedFolder() async throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(
            at: folder.file("x/sub"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: folder.file("lnk"), withDestinationURL: folder.file("x/sub"))
        // lnk/.. is x, not the folder lnk is in.
        let url = URL(fileURLWithPath: folder.file("lnk").path + "/../c.sqlite")
        let (store, persistence) = try await AttractionStore.openDatabase(
            at: url, pollInterval: nil)
        try store.add(Attraction(name: "Louvre"))
        try await persistence.close()

        #expect(try ListOnDisk.read(folder.file("x/c.sqlite")).map(\.name) == ["Louvre"])
        #expect(!FileManager.default.fileExists(atPath: folder.file("c.sqlite").path))
        #expect(try await OtherSQLiteProgram.run(OtherSQLiteProgram.names, url) == "Louvre")
    }

    @Test(
        "a database reached through 60 links, or a link whose target ends in a slash, is the file SQLite opens, and never taken for lost",
        arguments: [60, 0])
    func longWayToTheFile(links: Int) async throws {
        let folder = try TemporaryFolder()
        let real = folder.file("real.sqlite")
        try await SQLiteListFile.write([Attraction(name: "Louvre")], to: real)
        // 0: one link, to "real.sqlite/"; else a chain, each link to the one before.
        var target = links == 0 ? "real.sqlite/" : "real.sqlite"
        for number in 0..<max(links, 1) {
            try FileManager.default.createSymbolicLink(
                atPath: folder.file("l\(number).sqlite").path, withDestinationPath: target)
            target = "l\(number).sqlite"
        }
        let url = folder.file(target)

        let (store, persistence) = try await AttractionStore.openDatabase(
            at: url, pollInterval: nil)
        let notices = Notices(store)
        try store.add(Attraction(name: "Orsay"))
        try await persistence.flush()
        persistence.lookForChanges()
        try await persistence.close()

        #expect(notices.messages.isEmpty, "\(notices.messages)")
        #expect(persistence.url == real)
        #expect(try ListOnDisk.read(real).map(\.name) == ["Louvre", "Orsay"])
        #expect(try await OtherSQLiteProgram.run(OtherSQLiteProgram.names, url) == "Louvre,Orsay")
    }

    @Test(
        "a new database written through a link to a file not made yet is made where the link leads, as the JSON document's is; a folder in the way, or a loop of links, is named"
    )
    func newDatabaseThroughALink() async throws {
        let folder = try TemporaryFolder()
        let link = folder.file("link.sqlite")
        try FileManager.default.createSymbolicLink(
            atPath: link.path, withDestinationPath: "real.sqlite")

        try await SQLiteListFile.write([Attraction(name: "Louvre")], to: link)

        #expect(try ListOnDisk.read(folder.file("real.sqlite")).map(\.name) == ["Louvre"])
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "real.sqlite")
        try FileManager.default.createSymbolicLink(
            atPath: folder.file("loop.sqlite").path, withDestinationPath: "loop.sqlite")
        await #expect {
            _ = try await AttractionStore.openDatabase(at: folder.file("loop.sqlite"))
        } throws: { error in
            "\(error)".hasSuffix("its links lead round in a loop, or through more than 100 links")
        }
        try FileManager.default.createDirectory(
            at: folder.file("taken.sqlite"), withIntermediateDirectories: false)
        await #expect {
            try await SQLiteListFile<Attraction>.write([], to: folder.file("taken.sqlite"))
        } throws: { error in
            "\(error)".hasSuffix("a folder is already there")
        }
    }
}
