import Foundation
import Testing

@Suite("The avatars sample, driven as a user would", .samplesTakeTurns)
struct AvatarsSampleTests {
    @Test(
        "a script loads, caches, fails, retries and counts, each command finished before the next")
    func scriptedSession() async throws {
        let run = try await SampleRunner.run(
            "avatars",
            script:
                "latency 0\nload 1\nload 1\nfailure-rate 1\nload 2\nfailure-rate 0\nreload 2\nstats\n"
        )

        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("1. Ada Lovelace <ada@example.com>  [avatar: 8×8 PPM]"))
        #expect(
            run.outputLines.contains(
                "row 1: the avatar of ada@example.com is already loaded (cached); 'reload 1' fetches it again"
            ))
        #expect(
            run.output.contains(
                "2. Grace Hopper <grace@example.com>  [failed: cannot fetch simulated:grace@example.com: the simulated service failed on purpose (failure rate)]"
            )
        )
        #expect(run.output.contains("2. Grace Hopper <grace@example.com>  [avatar: 8×8 PPM]"))
        #expect(
            run.outputLines.suffix(4) == [
                "requests: 3", "coalesced: 0", "cache-hits: 1", "failures: 1",
            ])
    }

    @Test("the same script prints the same output every time")
    func deterministic() async throws {
        let script = "latency 0\nfailure-rate 0.5\nload all\nstats\n"

        let first = try await SampleRunner.run("avatars", script: script)
        let second = try await SampleRunner.run("avatars", script: script)

        #expect(first.output == second.output)
        #expect(first.outputLines.suffix(4).first == "requests: 4")
    }

    @Test(
        "--source file:// draws PPM avatars from a folder and shows other formats by type and size")
    func fileSource() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "avatars-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("P3\n2 1\n255\n0 0 0  255 255 255\n".utf8).write(
            to: folder.appending(path: "ada@example.com"))
        try Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3, 4, 5, 6]).write(
            to: folder.appending(path: "grace@example.com"))

        let run = try await SampleRunner.run(
            "avatars",
            ["--source", folder.absoluteString],
            script: "load 1\nload 2\nload 3\n"
        )

        #expect(
            run.output.contains("1. Ada Lovelace <ada@example.com>  [avatar: 2×1 PPM]\n       @@..")
        )
        #expect(
            run.output.contains(
                "2. Grace Hopper <grace@example.com>  [avatar: PNG, 10 bytes, not drawable here]"))
        #expect(
            run.output.contains(
                "3. Alan Turing <alan@example.com>  [failed: no avatar for alan@example.com]"))
        #expect(run.status == 0)
    }

    @Test("bad input of every kind is an error line, and the exit status is 1")
    func badInput() async throws {
        let run = try await SampleRunner.run(
            "avatars",
            script:
                "load\nload 9\nadd nobody Someone\nadd ada@example.com Ada\nadd grace@example.com\nlatency fast\nfailure-rate 2\nfly\n"
        )

        #expect(
            run.errorLines == [
                "error: 'load' needs a row number",
                "error: there is no contact at row 9: the list has 4",
                "error: an e-mail address needs an @ between the name and the domain",
                "error: ada@example.com is already a contact",
                "error: 'add' needs an address and a name",
                "error: 'latency' needs milliseconds from 0 to 60000, not 'fast'",
                "error: 'failure-rate' needs a number from 0 to 1, not '2'",
                "error: unknown command 'fly'; type 'help' for the list",
            ]
        )
        #expect(run.status == 1)
    }

    @Test("the simulated service's settings are refused with a live source")
    func liveSourceSettings() async throws {
        let run = try await SampleRunner.run(
            "avatars", ["--source", "http://127.0.0.1:9/"], script: "latency 5\n")

        #expect(run.errorLines == ["error: 'latency' applies to the simulated service only"])
    }

    @Test("a source that is not a file or HTTP URL is a usage error")
    func badSource() async throws {
        let run = try await SampleRunner.run("avatars", ["--source", "ftp://example.com/"])

        #expect(
            run.errorLines == [
                "error: --source needs a file://, http:// or https:// URL, not 'ftp://example.com/'"
            ])
        #expect(run.status == 64)
    }

    @Test(
        "--trace shows a load travel from the view to the service and back through the keyed channel"
    )
    func trace() async throws {
        let run = try await SampleRunner.run("avatars", ["--trace"], script: "latency 0\nload 1\n")

        let hops = run.outputLines.filter { $0.hasPrefix("  trace: ") }
        #expect(
            hops == [
                "  trace: view → presenter: row 1: load()",
                "  trace: presenter → facade: loadAvatar(for: ada@example.com)",
                "  trace: facade → store: remoteConnectionManager.loadAvatar(for: ada@example.com)",
                "  trace: store → observation: avatarLoading(ada@example.com)",
                "  trace: observation → presenter: modelUpdated(avatarLoading(ada@example.com))",
                "  trace: presenter → view: contact list view state changed",
                "  trace: store → service: avatar(for: ada@example.com)",
                "  trace: store → observation: avatarLoaded(ada@example.com)",
                "  trace: observation → presenter: modelUpdated(avatarLoaded(ada@example.com))",
                "  trace: presenter → view: contact list view state changed",
            ]
        )
    }

    @Test("--help documents the options and every command")
    func help() async throws {
        let run = try await SampleRunner.run("avatars", ["--help"])

        #expect(
            run.output.hasPrefix(
                "USAGE: avatars [--source URL] [--timeout SECONDS] [--max-requests N] [--trace] [-h | --help]"
            ))
        for command in [
            "list", "load <row>", "load all", "reload <row>", "cancel <row>",
            "add <address> <name>",
            "latency <milliseconds>",
            "failure-rate <0...1>", "stats", "help", "quit",
        ] {
            #expect(run.output.contains("\n\(command) "), "--help does not list \(command)")
        }
    }
}

@Suite("The avatars sample against a hostile source", .samplesTakeTurns)
struct AvatarsHostileSourceTests {
    @Test("a picture with a negative sample is a typed failure on its row, not a crash")
    func negativeSample() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "avatars-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("P3 1 1 255 -1 0 0".utf8).write(to: folder.appending(path: "ada@example.com"))

        let run = try await SampleRunner.run(
            "avatars", ["--source", folder.absoluteString], script: "load 1\ncancel 1\n")

        #expect(run.status == 0)
        #expect(
            run.output.contains(
                "[avatar: PPM (the PPM image is cut short), 17 bytes, not drawable here]"))
    }

    @Test("cancel with nothing in flight says so, and changes nothing")
    func cancelNothing() async throws {
        let run = try await SampleRunner.run("avatars", [], script: "cancel 1\n")

        #expect(run.status == 0)
        #expect(
            run.output.contains(
                "row 1: no request for the avatar of ada@example.com is in flight; nothing to cancel"
            ),
            "\(run.output)")
    }

    @Test("--timeout must be a number of seconds")
    func badTimeout() async throws {
        let run = try await SampleRunner.run(
            "avatars", ["--source", "http://127.0.0.1:9/", "--timeout", "soon"])

        #expect(run.status == 64)
        #expect(
            run.errorLines.first
                == "error: --timeout needs a number of seconds from 0 to 3600, not 'soon'")
    }

    @Test("a server's error text is shown with its control characters made visible")
    func hostileText() async throws {
        let run = try await SampleRunner.run(
            "avatars", [], script: "add \u{1B}[2Jeve@example.com Eve\u{7}\nlist\n")

        #expect(!run.output.contains("\u{1B}[2J") && !run.errors.contains("\u{1B}"))
    }
}
