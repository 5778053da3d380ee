import Foundation
import Testing

/// Each post's essentials program is held to its production sample.
///
/// For the same script: the same screens, the same errors, the same exit status. Where production shows more (a drawn
/// picture, an undo line, counters the essentials do not keep), the test says which lines it
/// leaves out, so the essentials cannot drift into a different idea.
@Suite("Each essentials program prints what its production sample prints", .samplesTakeTurns)
struct EssentialsTests {
    /// Runs `production` and `essentials` on `script` (each with `arguments(folder)`, in a fresh
    /// folder) and expects the same output, once `onlyProduction` lines are left out of
    /// production's (and each is redrawn by `productionLine`, then all by `productionLines`), the
    /// same errors and the same exit status.
    private func expectSame(
        _ production: String, _ essentials: String, script: String,
        arguments: (URL) -> [String] = { _ in [] },
        onlyProduction: (String) -> Bool = { _ in false },
        productionLine: (String) -> String = { $0 },
        productionLines: ([String]) -> [String] = { $0 }
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "essentials-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = folder.appending(path: "production")
        let second = folder.appending(path: "essentials")
        for place in [first, second] {
            try FileManager.default.createDirectory(at: place, withIntermediateDirectories: true)
        }
        let expected = try await SampleRunner.run(production, arguments(first), script: script)
        let actual = try await SampleRunner.run(essentials, arguments(second), script: script)

        let kept = productionLines(
            expected.outputLines.filter { !onlyProduction($0) }.map(productionLine))
        #expect(kept.count > 3, "the script shows too little to compare")
        #expect(actual.outputLines == kept)
        #expect(actual.errorLines == expected.errorLines)
        #expect(actual.status == expected.status)
    }

    @Test("switches-essentials prints what switches prints, line for line, errors and help too")
    func switches() async throws {
        let script = """
            # every command, and two mistakes
            a
            b
            show
            reset
            reset
              b  
            press
            a 2
            help
            b
            A
            quit
            a
            """
        try await expectSame(
            "switches", "switches-essentials", script: script,
            productionLine: Self.asEssentialsSwitches)
    }

    /// The essentials' two switches; production may have more (the worked example adds C).
    private static let essentialsSwitches = ["A", "B"]

    /// Production's line as the essentials draw it: the buttons of their switches only, and the
    /// help's first line naming only their keys, aligned as theirs is.
    private static func asEssentialsSwitches(_ line: String) -> String {
        if let help = line.firstMatch(of: #/^([a-z](?:, [a-z])*) +(press a button: .*)$/#) {
            let keys = essentialsSwitches.map { $0.lowercased() }.joined(separator: ", ")
            let width = max(keys.count, "reset".count) + 4
            return keys + String(repeating: " ", count: width - keys.count) + help.output.2
        }
        return line.replacing(#/ \[([A-Z]): (?:on |off)\]/#) { button in
            essentialsSwitches.contains(String(button.output.1)) ? String(button.output.0) : ""
        }
    }

    @Test(
        "avatars-essentials prints what avatars prints for the commands both have, pictures aside")
    func avatars() async throws {
        let script = """
            load 1
            load 1
            add linus@example.org Linus
            load 5
            load 3
            load 9
            list
            """
        // Production draws each picture under its row, indented seven spaces, and offers its
        // `reload` when a load finds the avatar cached.
        try await expectSame(
            "avatars", "avatars-essentials", script: script,
            onlyProduction: { $0.hasPrefix("       ") },
            productionLine: {
                $0.replacingOccurrences(
                    of: #"; 'reload \d+' fetches it again"#, with: "", options: .regularExpression)
            })
    }

    @Test(
        "attractions-essentials prints what attractions prints for the commands both have, undo aside"
    )
    func attractions() async throws {
        let script = """
            add Eiffel Tower
            add
            delete 1
            new
            name Louvre
            save
            new
            save
            name Musée d'Orsay
            notes Impressionists
            save
            edit 1
            notes Mona Lisa
            delete 1
            save
            edit 2
            cancel
            move 2 1
            delete 2
            delete 9
            edit x
            notes nowhere
            frobnicate
            """
        try await expectSame(
            "attractions", "attractions-essentials", script: script,
            arguments: { ["--store", $0.appending(path: "attractions.json").path] },
            // Production has undo and redo, and any field added to it since; the essentials
            // have neither.
            onlyProduction: { $0.hasPrefix("  [Undo") },
            productionLines: Self.asEssentialsScreens)
    }

    /// The fields the essentials' editor shows, as it aligns them.
    private static let essentialsFields = ["name", "notes"]

    /// Production's screens as the essentials draw them.
    ///
    /// A field they do not have (the worked example adds one) is left out: of the editor's
    /// header, of its lines, and of a list row's parts; each value and problem in the editor is
    /// aligned to their longest name. Other lines are left as they are.
    private static func asEssentialsScreens(_ lines: [String]) -> [String] {
        let column = 2 + (essentialsFields.map(\.count).max() ?? 0) + 2
        let header = #/^Editing an attraction \((.*), then save or cancel\)$/#
        let added = Set(
            lines.compactMap { $0.firstMatch(of: header) }
                .flatMap { $0.1.split(separator: ", ").map(String.init) }
        ).subtracting(essentialsFields)
        var inEditor = false
        var shown = true  // whether the field whose lines these are is the essentials' too
        return lines.compactMap { line in
            if line.firstMatch(of: #/^  \d+\. /#) != nil {
                return line.components(separatedBy: " — ").filter { part in
                    !added.contains { part.hasPrefix("\($0) ") }
                }.joined(separator: " — ")
            }
            if let header = line.firstMatch(of: header) {
                inEditor = true
                let fields = header.1.split(separator: ", ").map(String.init)
                let kept = fields.filter { essentialsFields.contains($0) }
                return
                    "Editing an attraction (\(kept.joined(separator: ", ")), then save or cancel)"
            }
            guard inEditor, line.hasPrefix("  ") else {
                inEditor = false
                return line
            }
            if let field = line.firstMatch(of: #/^  ([a-zA-Z]+): +(.*)$/#) {
                shown = essentialsFields.contains(String(field.1))
                let label = "  \(field.1): "
                let padding = String(repeating: " ", count: max(0, column - label.count))
                return shown ? label + padding + field.2 : nil
            }
            if let problem = line.firstMatch(of: #/^ +(! .*)$/#) {
                return shown ? String(repeating: " ", count: column) + problem.1 : nil
            }
            return line
        }
    }

    @Test("attractions-essentials keeps its list in its file, for the next run")
    func attractionsKeepTheirList() async throws {
        let file = FileManager.default.temporaryDirectory.appending(
            path: "essentials-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }

        let script = "new\nname Louvre\nsave\nnew\nname Prado\nnotes Goya\nsave\n"
        _ = try await SampleRunner.run(
            "attractions-essentials", ["--store", file.path], script: script)
        let again = try await SampleRunner.run(
            "attractions-essentials", ["--store", file.path], script: "")

        #expect(again.outputLines == ["Attractions", "  1. Louvre", "  2. Prado — Goya"])
    }

    @Test(
        "attractions-essentials keeps its list in the user's data folder, never the working one, and says an open edit is dropped at quit"
    )
    func attractionsDefaults() async throws {
        let home = FileManager.default.temporaryDirectory.appending(
            path: "essentials-home-\(UUID().uuidString)")
        let working = home.appending(path: "working")
        try FileManager.default.createDirectory(at: working, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }

        let run = try await SampleRunner.run(
            "attractions-essentials", script: "add Louvre\nnew\nname Prado\nquit\n", in: working,
            environment: ["XDG_DATA_HOME": home.path])

        #expect(run.outputLines.last == "(the open edit was not saved)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: working.path).isEmpty)
        let saved = try String(
            contentsOf: home.appending(path: "MVCLayers/attractions-essentials.json"),
            encoding: .utf8)
        #expect(saved.contains("Louvre") && !saved.contains("Prado"))
    }

    @Test("attractions-essentials refuses a file it cannot read, and leaves it as it was")
    func attractionsRefuseABadFile() async throws {
        let file = FileManager.default.temporaryDirectory.appending(
            path: "essentials-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("not json".utf8).write(to: file)

        let run = try await SampleRunner.run(
            "attractions-essentials", ["--store", file.path], script: "new\nname Louvre\nsave\n")

        #expect(run.status == 1)
        #expect(run.errors.hasPrefix("error: cannot read attractions from \(file.path)"))
        #expect(try String(contentsOf: file, encoding: .utf8) == "not json")
    }

    @Test("rows at the limits of Int are refused with a message, never a crash")
    func rowsAtTheLimits() async throws {
        let rows = ["0", "-1", "\(Int.min)", "\(Int.max)", "99999999999999999999"]
        let avatars = try await SampleRunner.run(
            "avatars-essentials", script: rows.map { "load \($0)\n" }.joined())
        #expect(avatars.errorLines.count == rows.count)
        #expect(avatars.status == 1)

        let file = FileManager.default.temporaryDirectory.appending(
            path: "essentials-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let script = rows.map { "edit \($0)\ndelete \($0)\nmove 1 \($0)\n" }.joined()
        let attractions = try await SampleRunner.run(
            "attractions-essentials", ["--store", file.path], script: script)
        #expect(attractions.errorLines.count == rows.count * 3)
        #expect(attractions.status == 1)
    }

    @Test("each essentials program has --help, and refuses an argument it does not know")
    func help() async throws {
        for name in ["switches-essentials", "avatars-essentials", "attractions-essentials"] {
            let help = try await SampleRunner.run(name, ["--help"])
            #expect(help.status == 0)
            #expect(help.output.hasPrefix("USAGE: \(name)"))
            let wrong = try await SampleRunner.run(name, ["--bogus"])
            #expect(wrong.status == 64)
        }
    }
}

/// What a hostile script tried against the essentials: each must be refused, nothing lost.
@Suite("The essentials refuse what would lose data or reach the terminal raw", .samplesTakeTurns)
struct EssentialsRefusalTests {
    private func store() -> URL {
        FileManager.default.temporaryDirectory.appending(
            path: "essentials-\(UUID().uuidString).json")
    }

    @Test("a bare command with words after it is refused, and the script goes on")
    func bareCommandsTakeNoArgument() async throws {
        let file = store()
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try await SampleRunner.run(
            "attractions-essentials", ["--store", file.path],
            script: "new\nname A\nquit now\nsave please\nsave\nhelp me\n")

        #expect(run.status == 1)
        #expect(
            run.errorLines == [
                "error: 'quit' takes no argument, but got 'now'",
                "error: 'save' takes no argument, but got 'please'",
                "error: 'help' takes no argument, but got 'me'",
            ])
        #expect(run.outputLines.last == "  1. A")
        let avatars = try await SampleRunner.run("avatars-essentials", script: "quit now\nload 1\n")
        #expect(avatars.errorLines == ["error: 'quit' takes no argument, but got 'now'"])
        #expect(avatars.output.contains("[avatar: 8×8 PPM]"))
    }

    @Test("a file where two attractions share one id is refused, and left as it was")
    func duplicateIDs() async throws {
        let file = store()
        defer { try? FileManager.default.removeItem(at: file) }
        let id = "11111111-1111-1111-1111-111111111111"
        let text = """
            [{"id":"\(id)","name":"First","notes":""},{"id":"\(id)","name":"Second","notes":""}]
            """
        try Data(text.utf8).write(to: file)

        let run = try await SampleRunner.run(
            "attractions-essentials", ["--store", file.path], script: "edit 2\nnotes x\nsave\n")

        #expect(run.status == 1)
        #expect(run.errors.contains("two attractions have the id \(id)"))
        #expect(try String(contentsOf: file, encoding: .utf8) == text)
    }

    @Test("a file whose names hold a control character is refused, never drawn raw")
    func controlCharactersInTheFile() async throws {
        let file = store()
        defer { try? FileManager.default.removeItem(at: file) }
        let text = """
            [{"id":"11111111-1111-1111-1111-111111111111","name":"A\\u001b[2JB","notes":""}]
            """
        try Data(text.utf8).write(to: file)

        let run = try await SampleRunner.run(
            "attractions-essentials", ["--store", file.path], script: "")

        #expect(run.status == 1)
        #expect(run.errors.contains("is not plain text"))
        #expect(!run.output.contains("\u{1B}"))
    }

    @Test("a contact whose address is taken, or is no address, is refused")
    func badContacts() async throws {
        let run = try await SampleRunner.run(
            "avatars-essentials", script: "add ada@example.com Ada\nadd nobody Nobody\n")

        #expect(
            run.errorLines == [
                "error: ada@example.com is already a contact",
                "error: an e-mail address needs an @ between the name and the domain",
            ])
        #expect(run.outputLines.count == 5)
    }

    @Test("a command with a control character is refused whole, and never echoed raw")
    func controlCharacters() async throws {
        for name in ["switches-essentials", "avatars-essentials", "attractions-essentials"] {
            let file = store()
            defer { try? FileManager.default.removeItem(at: file) }
            let run = try await SampleRunner.run(
                name, ["--store", file.path].filter { _ in name.hasPrefix("attractions") },
                script: "a\u{1B}]0;pwned\u{07}\nnew\nname A\u{1}B\nname A\u{202E}B\n")
            #expect(!run.errors.contains("\u{1B}"), "\(name)")
            #expect(!run.output.contains("\u{1}") && !run.output.contains("\u{202E}"), "\(name)")
            #expect(run.errorLines.count >= 3, "\(name): \(run.errorLines)")
        }
    }
}
