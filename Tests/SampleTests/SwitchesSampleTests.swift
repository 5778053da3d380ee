import Testing

@Suite("The switches sample, driven as a user would", .samplesTakeTurns)
struct SwitchesSampleTests {
    @Test("a script of presses prints the screen after each command that changed it")
    func scriptedSession() async throws {
        let run = try await SampleRunner.run("switches", script: "a\nb\nshow\nreset\nreset\na\n")

        #expect(
            run.outputLines == [
                "[A: off] [B: off]  Press a button.",
                "[A: on ] [B: off]  Switch A turned on.",
                "[A: on ] [B: on ]  Switch B turned on.",
                "[A: on ] [B: on ]  Switch B turned on.",
                "[A: off] [B: off]  Reset: switches A and B turned off.",
                "[A: off] [B: off]  Reset: every switch was already off.",
                "[A: on ] [B: off]  Switch A turned on.",
            ]
        )
        #expect(run.errors.isEmpty)
        #expect(run.status == 0)
    }

    @Test(
        "a bad command is an error on standard error, the script goes on, and the exit status is 1")
    func badCommands() async throws {
        let run = try await SampleRunner.run("switches", script: "press\na 2\nb\n")

        #expect(
            run.errorLines == [
                "error: unknown command 'press'; type 'help' for the list",
                "error: 'a' takes no argument, but got '2'",
            ]
        )
        #expect(run.outputLines.last == "[A: off] [B: on ]  Switch B turned on.")
        #expect(run.status == 1)
    }

    @Test("quit stops reading, and blank lines and comments are skipped")
    func quitAndComments() async throws {
        let run = try await SampleRunner.run("switches", script: "# press A\n\n  a  \nquit\nb\n")

        #expect(run.outputLines.count == 2)
        #expect(run.outputLines.last == "[A: on ] [B: off]  Switch A turned on.")
        #expect(run.status == 0)
    }

    @Test("help lists every command")
    func helpCommand() async throws {
        let run = try await SampleRunner.run("switches", script: "help\n")

        for command in ["a, b", "reset", "show", "help", "quit"] {
            #expect(run.output.contains("\n\(command)"), "help does not list \(command)")
        }
    }

    @Test("--help documents the options and the commands, and runs nothing")
    func helpFlag() async throws {
        let run = try await SampleRunner.run("switches", ["--help"], script: "a\n")

        #expect(run.output.hasPrefix("USAGE: switches [--trace] [-h | --help]"))
        #expect(run.output.contains("--trace"))
        #expect(run.output.contains("reset"))
        #expect(!run.output.contains("Switch A turned on."))
        #expect(run.status == 0)
    }

    @Test("an unknown option is a usage error with exit status 64")
    func unknownOption() async throws {
        let run = try await SampleRunner.run("switches", ["--colour"])

        #expect(run.errorLines.first == "error: unknown argument '--colour'")
        #expect(run.status == 64)
        #expect(run.output.isEmpty)
    }

    @Test("--trace shows each hop of a press, from the view and back to it")
    func traceFlag() async throws {
        let run = try await SampleRunner.run("switches", ["--trace"], script: "a\n")

        #expect(
            run.outputLines == [
                "[A: off] [B: off]  Press a button.",
                "  trace: view → presenter: buttonTapped(\"A\")",
                "  trace: presenter → model: isSwitchAOn = on",
                "  trace: model → observation: isSwitchAOn changed to on",
                "  trace: observation → presenter: switchAChanged(on)",
                "  trace: presenter → view: view state changed: Switch A turned on.",
                "[A: on ] [B: off]  Switch A turned on.",
            ]
        )
    }
}
