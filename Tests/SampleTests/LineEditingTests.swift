import Foundation
import SampleSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The keys as a terminal sends them.
private enum Keys {
    static let left = "\u{1B}[D"
    static let right = "\u{1B}[C"
    static let up = "\u{1B}[A"
    static let down = "\u{1B}[B"
    static let home = "\u{1B}[H"
    static let end = "\u{1B}[F"
    static let delete = "\u{1B}[3~"
    static let backspace = "\u{7F}"
    static let enter = "\r"
}

@Suite("Key decoding and the line editor")
struct LineEditorTests {
    private func edit(_ typed: String, history: [String] = []) -> String {
        var editor = LineEditor()
        for line in history { _ = editor.replay(line) }
        return editor.replay(typed)
    }

    @Test("arrows, Home, End, Backspace and Delete edit the line where the cursor is")
    func editing() async {
        #expect(edit("a" + Keys.left + "b") == "ba")
        #expect(
            edit("add Luvre" + Keys.left + Keys.left + Keys.left + Keys.left + "o") == "add Louvre")
        #expect(edit("dd Louvre" + Keys.home + "a") == "add Louvre")
        #expect(edit("add" + Keys.home + Keys.end + " Louvre") == "add Louvre")
        #expect(edit("add Louvree" + Keys.backspace) == "add Louvre")
        #expect(edit("xadd Louvre" + Keys.home + Keys.delete) == "add Louvre")
        #expect(
            edit(Keys.left + Keys.backspace + Keys.delete + "ok" + Keys.right + Keys.right) == "ok")
        #expect(edit("é" + Keys.left + "café ") == "café é")
    }

    @Test("Up and Down walk the history and come back to the line being typed")
    func history() async {
        var editor = LineEditor()
        _ = editor.replay("add Louvre")
        _ = editor.replay("add Orsay")
        _ = editor.replay("add Orsay")

        #expect(editor.history == ["add Louvre", "add Orsay"])
        #expect(editor.replay("draft" + Keys.up + Keys.up) == "add Louvre")
        #expect(editor.replay("draft" + Keys.up + Keys.up + Keys.up + Keys.down) == "add Orsay")
        #expect(editor.replay("draft" + Keys.up + Keys.down) == "draft")
        #expect(editor.replay(Keys.down + "x") == "x")
    }

    @Test("no escape sequence, known or not, ends up in a line, even when split or cut short")
    func escapeSequencesNeverLeak() async {
        let sequences = [
            "\u{1B}[1;5C", "\u{1B}[200~", "\u{1B}[?25h", "\u{1B}OP", "\u{1B}[15~", "\u{1B}x",
            "\u{1B}[" + String(repeating: "9", count: 100) + "m", "\u{1B}]0;title\u{07}",
        ]
        for sequence in sequences {
            let line = edit("a" + sequence + "b")
            #expect(
                !line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F },
                "\(sequence.debugDescription) → \(line.debugDescription)")
            #expect(
                line.hasPrefix("a") && line.hasSuffix("b"),
                "\(sequence.debugDescription) → \(line.debugDescription)")
        }
        var decoder = KeyDecoder()
        #expect(decoder.keys([0x1B]) == [])
        #expect(decoder.keys([UInt8(ascii: "[")]) == [])
        #expect(decoder.keys([UInt8(ascii: "D")]) == [.left])
    }

    @Test(
        "sequences a terminal or a hostile paste can send are consumed whole, and keys after them kept"
    )
    func awkwardSequences() async {
        // Alt+Up in rxvt (ESC ESC [ A), a sequence with too many parameters, 8-bit CSI, Alt+]
        // then a key, Esc then Enter, a window-title string: none leaves a byte in the line.
        #expect(edit("x\u{1B}\u{1B}[Ay") == "xy")
        #expect(edit("x\u{1B}[" + String(repeating: "1;", count: 40) + "5Ay") == "xy")
        #expect(edit("x\u{9B}1Ay") == "xy")
        #expect(edit("x\u{1B}]qy") == "xqy")
        #expect(edit("x\u{1B}]0;title\u{07}y") == "xy")
        var decoder = KeyDecoder()
        // A raw 8-bit CSI (one byte, not UTF-8), and Alt+O then Enter.
        #expect(
            decoder.keys([UInt8(ascii: "x"), 0x9B] + Array("200~y".utf8)) == [
                .text("x"), .text("y"),
            ])
        #expect(decoder.keys(Array("\u{1B}O\r".utf8)) == [.enter])
        #expect(decoder.keys(Array("p\u{1B}\r".utf8)) == [.text("p"), .enter])
        #expect(decoder.keys(Array("\u{1B}quit".utf8)) == "quit".map { .text($0) })
    }

    @Test("a combining mark or a skin tone joins the character before it")
    func graphemes() async {
        #expect(edit("e\u{301}" + Keys.left + Keys.backspace + "x") == "xé")
        #expect(edit("👍🏽" + Keys.left + "X") == "X👍🏽")
        var editor = LineEditor()
        _ = editor.replay("")
        var decoder = KeyDecoder()
        for key in decoder.keys(Array("e\u{301}".utf8)) { _ = editor.handle(key) }
        #expect(editor.line.count == 1)
    }

    @Test("a line wider than the terminal is drawn as a window around the cursor, on one row")
    func longLines() async {
        var editor = LineEditor()
        for _ in 0..<300 { _ = editor.handle(.text("a")) }
        let drawn = editor.rendering(prompt: "> ", width: 40)
        let visible = drawn.replacing(/\u{1B}\[[0-9]*[A-Za-z]/, with: "")
        #expect(visible.count <= 40)
        var wide = LineEditor()
        for character in "日本語" { _ = wide.handle(.text(character)) }
        _ = wide.handle(.left)
        #expect(
            wide.rendering(prompt: "> ").hasSuffix("\u{1B}[K\u{1B}[2D"),
            "one wide character is two columns")
    }

    @Test("random bytes never put a control character in a line, and never trap")
    func randomBytes() async {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            var decoder = KeyDecoder()
            var editor = LineEditor()
            let bytes = (0..<Int.random(in: 0..<64, using: &random)).map { _ in
                UInt8.random(in: 0...255, using: &random)
            }
            for key in decoder.keys(bytes) {
                if case .submitted(let line) = editor.handle(key) {
                    #expect(
                        !line.unicodeScalars.contains {
                            $0.value < 0x20 || (0x7F...0x9F).contains($0.value)
                        })
                }
            }
        }
    }

    @Test("the rendering puts the cursor back where it is in the line")
    func rendering() async {
        var editor = LineEditor()
        for key: Key in [.text("a"), .text("b"), .text("c"), .left, .left] {
            _ = editor.handle(key)
        }
        #expect(editor.rendering(prompt: "> ") == "\r> abc\u{1B}[K\u{1B}[2D")
    }
}

@Suite("The samples on a real terminal", .serialized, .samplesTakeTurns)
struct TerminalSessionTests {
    @Test("typing with arrows, Home, Backspace and history edits the command that runs")
    func lineEditingOnATerminal() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "tty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sample = try TerminalSample(
            "attractions", ["--store", folder.appending(path: "a.json").path])
        #expect(await sample.waitFor("> "))
        #expect(!sample.isInLineMode, "the sample edits lines itself")

        await sample.type(
            "add Luvre" + Keys.left + Keys.left + Keys.left + Keys.left + "o" + Keys.enter)
        #expect(await sample.waitFor("1. Louvre"))
        await sample.type("dd Orsayy" + Keys.backspace + Keys.home + "a" + Keys.enter)
        #expect(await sample.waitFor("2. Orsay"))
        // Up twice recalls "add Louvre"; edit it into a third attraction.
        await sample.type(Keys.up + Keys.up + Keys.end + " Pyramid" + Keys.enter)
        #expect(await sample.waitFor("3. Louvre Pyramid"))
        await sample.type("quit" + Keys.enter)

        // The status and the screen said: a sanitizer's report would be on the screen alone.
        let status = await sample.waitForExit()
        #expect(
            status == 0, "exit status \(String(describing: status)): \(sample.screen.suffix(800))")
        #expect(!sample.screen.contains("unknown command"), "\(sample.screen)")
        #expect(sample.isInLineMode, "the terminal was not restored")
    }

    @Test(
        "on a terminal, an edit not yet in the file is marked until the save, then drawn unmarked")
    func pendingMark() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "tty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sample = try TerminalSample(
            "attractions", ["--store", folder.appending(path: "a.json").path])
        #expect(await sample.waitFor("> "))

        await sample.type("add Louvre" + Keys.enter)

        // Drawn at once, marked; drawn again, unmarked, once the document's save is written.
        #expect(await sample.waitFor("(not saved yet)"), "\(sample.screen)")
        let lastScreenIsMarked = {
            sample.screen.components(separatedBy: "1. Louvre").last?.contains("not saved") ?? true
        }
        let deadline = ContinuousClock.now + .seconds(30)
        while lastScreenIsMarked(), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        #expect(!lastScreenIsMarked(), "\(sample.screen)")
        await sample.type("quit" + Keys.enter)
        #expect(await sample.waitForExit() == 0)
    }

    @Test("the terminal is restored after Control-D, and after each signal the samples handle")
    func terminalRestoredOnEveryExit() async throws {
        let endOfInput = try TerminalSample("switches")
        #expect(await endOfInput.waitFor("> "))
        await endOfInput.type("a" + Keys.enter)
        #expect(await endOfInput.waitFor("Switch A turned on."))
        await endOfInput.type("\u{04}")
        #expect(await endOfInput.waitForExit() == 0)
        #expect(endOfInput.isInLineMode)

        for (name, signal) in [
            ("switches", SIGINT), ("avatars", SIGTERM), ("attractions", SIGHUP),
            ("switches", SIGQUIT),
        ] {
            let folder = FileManager.default.temporaryDirectory.appending(
                path: "tty-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let arguments =
                name == "attractions" ? ["--store", folder.appending(path: "a.json").path] : []
            let sample = try TerminalSample(name, arguments)
            #expect(await sample.waitFor("> "), "\(name)")
            await sample.type("hel")
            #expect(!sample.isInLineMode, "\(name)")
            sample.signal(signal)
            #expect(await sample.waitForExit() == 128 + signal, "\(name)")
            #expect(
                sample.isInLineMode, "\(name): the terminal was not restored after signal \(signal)"
            )
        }
    }

    @Test(
        "a sample whose output is not the terminal leaves the terminal exactly as it found it",
        arguments: ["attractions", "avatars", "switches"])
    func outputElsewhereLeavesTerminal(name: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "terminal-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appending(path: "out")
        try Data().write(to: output)
        let arguments =
            name == "attractions" ? ["--store", folder.appending(path: "a.json").path] : []
        let sample = try TerminalSample(name, arguments, output: output)

        await sample.type("quit\r")
        #expect(await sample.waitForExit() != nil)

        let before = sample.settingsBefore
        let after = sample.settingsNow
        #expect(after.c_lflag == before.c_lflag, "\(name): local modes changed")
        #expect(after.c_iflag == before.c_iflag, "\(name): input modes changed")
        #expect(after.c_oflag == before.c_oflag, "\(name): output modes changed")
        #expect(cfgetospeed([after]) == cfgetospeed([before]), "\(name): the speed changed")
    }

    @Test("Control-Z puts the terminal back while stopped, and continuing edits again")
    func suspendAndContinue() async throws {
        let sample = try TerminalSample("switches")
        #expect(await sample.waitFor("> "))
        await sample.type("a")
        sample.signal(SIGTSTP)
        #expect(
            await eventually { sample.isInLineMode },
            "the terminal stayed raw while the sample was stopped")
        #expect(await eventually { sample.isStopped }, "the sample did not stop")
        sample.signal(SIGCONT)
        #expect(await eventually { !sample.isInLineMode }, "editing did not resume")
        await sample.type(Keys.enter)
        #expect(await sample.waitFor("Switch A turned on."))
        await sample.type("quit" + Keys.enter)
        #expect(await sample.waitForExit() == 0)
        #expect(sample.isInLineMode)
    }

    @Test("a long paste is drawn on one row: the output grows with the paste, not its square")
    func longPaste() async throws {
        let sample = try TerminalSample("switches")
        #expect(await sample.waitFor("> "))
        let pasted = String(repeating: "x", count: 3_000)
        await sample.type(pasted + Keys.enter)
        #expect(await sample.waitFor("unknown command"))
        await sample.type("quit" + Keys.enter)
        #expect(await sample.waitForExit() == 0)
        // Each key redraws at most one terminal row (about 80 columns): 3,000 keys stay well
        // under 400 kB, where redrawing the whole line each time would write about 4.5 MB.
        #expect(sample.screen.utf8.count < 400_000)
    }

    @Test("an escape sequence typed on a terminal never reaches a command")
    func escapesOnATerminal() async throws {
        let sample = try TerminalSample("switches")
        #expect(await sample.waitFor("> "))
        await sample.type("\u{1B}[1;5Ca\u{1B}[15~" + Keys.enter)
        #expect(await sample.waitFor("Switch A turned on."))
        await sample.type("quit" + Keys.enter)
        #expect(await sample.waitForExit() == 0)
        #expect(!sample.screen.contains("unknown command"))
    }
}
