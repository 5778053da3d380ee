import Foundation
import Testing

@Suite("The attractions sample, driven as a user would", .samplesTakeTurns)
struct AttractionsSampleTests {
    /// A fresh folder for the store file, removed afterwards.
    private final class Folder {
        let url = FileManager.default.temporaryDirectory.appending(
            path: "attractions-sample-\(UUID().uuidString)")
        init() throws {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        var store: String { url.appending(path: "attractions.json").path }
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    @Test("what one run adds, edits and reorders is there on the next run")
    func twoRuns() async throws {
        let folder = try Folder()

        let first = try await SampleRunner.run(
            "attractions",
            ["--store", folder.store],
            script:
                "add Louvre\nnew\nname Orsay\nnotes Impressionists\nsave\nmove 2 1\nedit 2\nnotes Mona Lisa\nsave\n"
        )
        let second = try await SampleRunner.run(
            "attractions", ["--store", folder.store], script: "list\n")

        #expect(first.status == 0, "\(first.errors)")
        #expect(
            first.output.hasSuffix(
                """
                Attractions
                  1. Orsay — Impressionists
                  2. Louvre — Mona Lisa
                  [Undo Edit “Louvre”]  [Redo: nothing]

                """
            )
        )
        #expect(
            second.outputLines == [
                "Attractions",
                "  1. Orsay — Impressionists",
                "  2. Louvre — Mona Lisa",
                "  [Undo: nothing]  [Redo: nothing]",
                "Attractions",
                "  1. Orsay — Impressionists",
                "  2. Louvre — Mona Lisa",
                "  [Undo: nothing]  [Redo: nothing]",
            ]
        )
    }

    @Test("delete, undo and redo work from a script, and the end of input saves")
    func deleteUndoRedo() async throws {
        let folder = try Folder()

        let run = try await SampleRunner.run(
            "attractions",
            ["--store", folder.store],
            script: "add Louvre\nadd Orsay\ndelete 1\nundo\nredo\n"
        )
        let after = try await SampleRunner.run(
            "attractions", ["--store", folder.store], script: "")

        #expect(run.status == 0)
        #expect(
            run.outputLines.suffix(3) == [
                "Attractions", "  1. Orsay", "  [Undo Delete “Louvre”]  [Redo: nothing]",
            ])
        #expect(
            after.outputLines == [
                "Attractions", "  1. Orsay", "  [Undo: nothing]  [Redo: nothing]",
            ])
    }

    @Test("every kind of bad input gets an error line, changes nothing, and the exit status is 1")
    func badInput() async throws {
        let folder = try Folder()

        let run = try await SampleRunner.run(
            "attractions",
            ["--store", folder.store],
            script: """
                add Louvre
                frobnicate
                edit
                edit two
                edit 7
                move 1
                delete 0
                add
                new
                list
                name
                save
                cancel
                save
                redo
                """
        )

        #expect(
            run.errorLines == [
                "error: unknown command 'frobnicate'; type 'help' for the list",
                "error: 'edit' needs a row number",
                "error: 'two' is not a row number; rows are numbered from 1",
                "error: there is no attraction at position 7: the list has 1",
                "error: 'move' needs two row numbers",
                "error: '0' is not a row number; rows are numbered from 1",
                "error: 'add' needs a name",
                "error: an editor is open; 'save' or 'cancel' it first",
                "error: not saved: an attraction needs a name",
                "error: no editor is open; use 'new' or 'edit <row>' first",
                "error: there is nothing to redo",
            ]
        )
        #expect(run.status == 1)
        let after = try await SampleRunner.run(
            "attractions", ["--store", folder.store], script: "")
        #expect(
            after.outputLines == [
                "Attractions", "  1. Louvre", "  [Undo: nothing]  [Redo: nothing]",
            ])
    }

    @Test("a corrupt store file is refused with its path and problem, and left byte for byte")
    func corruptStore() async throws {
        let folder = try Folder()
        let corrupt = Data(#"{"formatVersion": 2, "document": [{"id": "#.utf8)
        try corrupt.write(to: URL(fileURLWithPath: folder.store))

        let run = try await SampleRunner.run(
            "attractions", ["--store", folder.store], script: "add Louvre\n")

        #expect(
            run.errorLines == [
                "error: cannot read \(folder.store): it is not a valid document (the file ends in the middle of the data: it was cut short); the file was left untouched"
            ]
        )
        #expect(run.status == 1)
        #expect(run.output.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.store)) == corrupt)
    }

    @Test("a store file from a newer version is refused, and left alone")
    func newerStore() async throws {
        let folder = try Folder()
        let newer = Data(#"{"formatVersion": 9, "document": []}"#.utf8)
        try newer.write(to: URL(fileURLWithPath: folder.store))

        let run = try await SampleRunner.run(
            "attractions", ["--store", folder.store], script: "add Louvre\n")

        #expect(run.errors.contains("format version 9, and this program reads versions up to 2"))
        #expect(run.status == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.store)) == newer)
    }

    @Test("a store in a folder that cannot be written reports the failed save and exits 1")
    func unwritableFolder() async throws {
        let folder = try Folder()
        let blocker = folder.url.appending(path: "blocker")
        try Data("a file, not a folder".utf8).write(to: blocker)
        let store = blocker.appending(path: "attractions.json").path

        let run = try await SampleRunner.run(
            "attractions", ["--store", store], script: "add Louvre\n")

        #expect(
            run.errorLines == [
                "error: cannot save \(store): \(blocker.path) is a file, not a folder; nor could the list be written beside it"
            ])
        #expect(run.status == 1)
        #expect(try String(contentsOf: blocker, encoding: .utf8) == "a file, not a folder")
    }

    @Test("leaving with an editor open discards the edit and says so")
    func quitWithOpenEditor() async throws {
        let folder = try Folder()

        let run = try await SampleRunner.run(
            "attractions", ["--store", folder.store], script: "new\nname Orsay\nquit\n")

        #expect(run.outputLines.last == "(the open edit was not saved)")
        #expect(run.status == 0)
        #expect(!FileManager.default.fileExists(atPath: folder.store))
    }

    @Test("--trace: every change of a screen follows a hop into the presenter that caused it")
    func everyViewChangeHasACause() async throws {
        let folder = try Folder()

        let run = try await SampleRunner.run(
            "attractions", ["--store", folder.store, "--trace"],
            script: "add Louvre\nnew\nname Orsay\nsave\nedit 1\nnotes Art\ncancel\nmove 2 1\nundo\n"
        )

        // A run of view changes starts right after a hop the presenter took part in: one into it
        // (an intent, a store's change) or out of it (its call to a delegate, then its result).
        let hops = run.outputLines.filter { $0.hasPrefix("  trace: ") }
        for (index, hop) in hops.enumerated() where hop.contains("presenter → view:") {
            let cause = hops[..<index].last { !$0.contains("presenter → view:") }
            #expect(
                cause?.contains("→ presenter:") == true || cause?.contains("presenter →") == true,
                "“\(hop)” follows “\(cause ?? "nothing")”")
        }
    }

    @Test("--trace shows a save travel from the editor through the delegate to the store and back")
    func trace() async throws {
        let folder = try Folder()

        let run = try await SampleRunner.run(
            "attractions",
            ["--store", folder.store, "--trace"],
            script: "add Louvre\nedit 1\nnotes Mona Lisa\nsave\n"
        )

        let hops = run.outputLines.filter { $0.hasPrefix("  trace: ") }
        let save = try #require(hops.firstIndex(of: "  trace: view → presenter: saveTapped()"))
        #expect(
            Array(hops[save...]) == [
                "  trace: view → presenter: saveTapped()",
                "  trace: presenter → delegate: saveElement(“Louvre”)",
                "  trace: delegate → store: mergeEdit(of: “Louvre”, result: “Louvre”)",
                "  trace: store → persistence: listChanged(1 attraction)",
                // Saving is pending: the list marks it.
                "  trace: persistence → store: save status: pending",
                "  trace: store → observation: saving pending",
                "  trace: observation → presenter: send(.savingChanged(.pending))",
                "  trace: presenter → view: list view state changed",
                "  trace: store → observation: “Louvre” updated at 0",
                "  trace: observation → presenter: send(.storeChanged(“Louvre” updated at 0))",
                "  trace: presenter → view: list view state changed",
                "  trace: presenter → view: editor view state changed",
                "  trace: presenter → view: list view state shown",
                "  trace: persistence → disk: write \(folder.store)",
                "  trace: disk → persistence: written",
                // Saved: the mark goes, before the screen is drawn.
                "  trace: persistence → store: save status: saved",
                "  trace: store → observation: saving saved",
                "  trace: observation → presenter: send(.savingChanged(.saved))",
                "  trace: presenter → view: list view state changed",
            ]
        )
    }

    @Test("--help documents the options and every command")
    func help() async throws {
        let run = try await SampleRunner.run("attractions", ["--help"])

        #expect(
            run.output.hasPrefix(
                "USAGE: attractions [--store PATH] [--convert PATH] [--trace] [-h | --help]"))
        for command in [
            "list", "add <name>", "new", "edit <row>", "name <text>", "notes <text>", "save",
            "cancel",
            "move <from> <to>", "delete <row>", "page <n>", "undo", "redo", "help", "quit",
        ] {
            #expect(run.output.contains("\n\(command) "), "--help does not list \(command)")
        }
        #expect(run.status == 0)
    }
}
