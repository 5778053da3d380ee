import Foundation
import Testing

/// The attractions sample with a database, a conversion between the formats, and a list longer
/// than a screen.
@Suite("The attractions sample: both formats, and a long list", .samplesTakeTurns)
struct AttractionsFormatTests {
    private let folder = FileManager.default.temporaryDirectory.appending(
        path: "attractions-formats-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private func path(_ name: String) -> String { folder.appending(path: name).path }

    @Test(
        "a .sqlite store keeps the list in a database, and the screens are the same as a JSON one's"
    )
    func sameScreens() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let script =
            "add Louvre\nnew\nname Orsay\nnotes Impressionists\nsave\nmove 2 1\ndelete 2\nundo\n"

        let json = try await SampleRunner.run(
            "attractions", ["--store", path("a.json")], script: script)
        let sqlite = try await SampleRunner.run(
            "attractions", ["--store", path("a.sqlite")], script: script)
        let again = try await SampleRunner.run(
            "attractions", ["--store", path("a.sqlite")], script: "")

        #expect(json.status == 0 && sqlite.status == 0, "\(json.errors)\(sqlite.errors)")
        #expect(sqlite.output == json.output)
        #expect(
            again.outputLines == [
                "Attractions", "  1. Orsay — Impressionists", "  2. Louvre",
                "  [Undo: nothing]  [Redo: nothing]",
            ])
        let header = try FileHandle(forReadingFrom: folder.appending(path: "a.sqlite"))
            .read(upToCount: 15)
        #expect(header == Data("SQLite format 3".utf8))
    }

    @Test("--convert copies a list into the other format, and never replaces a file")
    func convert() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try await SampleRunner.run(
            "attractions", ["--store", path("a.json")], script: "add Louvre\nadd Orsay\nmove 2 1\n")

        let toDatabase = try await SampleRunner.run(
            "attractions", ["--store", path("a.json"), "--convert", path("b.sqlite")])
        let back = try await SampleRunner.run(
            "attractions", ["--store", path("b.sqlite"), "--convert", path("c.json")])
        let shown = try await SampleRunner.run("attractions", ["--store", path("c.json")])
        let again = try await SampleRunner.run(
            "attractions", ["--store", path("a.json"), "--convert", path("b.sqlite")])
        let missing = try await SampleRunner.run(
            "attractions", ["--store", path("none.json"), "--convert", path("d.sqlite")])

        #expect(toDatabase.status == 0, "\(toDatabase.errors)")
        #expect(
            toDatabase.outputLines == [
                "Copied 2 attractions into \(path("b.sqlite")), an SQLite database."
            ])
        #expect(back.status == 0, "\(back.errors)")
        #expect(shown.outputLines.dropFirst().prefix(2) == ["  1. Orsay", "  2. Louvre"])
        #expect(again.status == 1)
        #expect(
            again.errors.contains(
                "\(path("b.sqlite")): a file is already there; it was left as it is"))
        #expect(missing.status == 1)
        #expect(missing.errors.contains("cannot read \(path("none.json")): there is no such file"))
        #expect(!FileManager.default.fileExists(atPath: path("d.sqlite")))
    }

    @Test("a long list is drawn 20 rows at a time, around the last change, and page shows another")
    func window() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let adds = (1...45).map { "add place \($0)" }.joined(separator: "\n")

        let run = try await SampleRunner.run(
            "attractions", ["--store", path("long.sqlite")],
            script: adds
                + "\npage 1\npage 3\nmove 44 2\npage 4\npage 0\npage\nedit 9223372036854775807\nmove 1 9223372036854775807\n"
        )

        #expect(run.status == 1, "page 4 of 3, and rows past the end, are refused")
        #expect(
            run.errorLines.prefix(3) == [
                "error: there is no page 4: the list has 3 pages",
                "error: '0' is not a page number; pages are numbered from 1",
                "error: 'page' needs a page number",
            ])
        #expect(run.errorLines.count == 5, "\(run.errors)")
        let screens = run.output.components(separatedBy: "Attractions\n").dropFirst().map {
            $0.split(separator: "\n").map(String.init)
        }
        // Each screen: at most 20 rows, then the window line, the undo line.
        #expect(
            screens.allSatisfy { $0.filter { $0.hasPrefix("  ") && $0.contains(". ") }.count <= 20 }
        )
        let afterAdds = try #require(screens.dropFirst(45).first)
        #expect(afterAdds.first == "  26. place 26" && afterAdds[19] == "  45. place 45")
        #expect(afterAdds[20] == "  (rows 26–45 of 45; 'page <1–3>' shows another 20)")
        let pageOne = try #require(screens.dropFirst(46).first)
        #expect(pageOne.first == "  1. place 1" && pageOne[19] == "  20. place 20")
        let pageThree = try #require(screens.dropFirst(47).first)
        #expect(pageThree.first == "  41. place 41" && pageThree[4] == "  45. place 45")
        #expect(pageThree[5] == "  (rows 41–45 of 45; 'page <1–3>' shows another 20)")
        let afterMove = try #require(screens.dropFirst(48).first)
        #expect(afterMove.first == "  1. place 1" && afterMove[1] == "  2. place 44")
    }

    @Test(
        "a relative --store with .. after a linked folder names the file the system and SQLite find there",
        arguments: ["json", "sqlite"])
    func relativeParentOfALinkedFolder(format: String) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appending(path: "real/sub"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: path("lsub"), withDestinationPath: "real/sub")

        let run = try await SampleRunner.run(
            "attractions", ["--store", "lsub/../x.\(format)"], script: "add Louvre\n", in: folder)

        #expect(run.status == 0, "\(run.errors)")
        // lsub/.. is real, not the folder lsub is in.
        #expect(FileManager.default.fileExists(atPath: path("real/x.\(format)")))
        #expect(!FileManager.default.fileExists(atPath: path("x.\(format)")))
    }
}
