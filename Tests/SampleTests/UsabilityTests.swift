import Foundation
import Testing

@Suite("What a new user tries first", .samplesTakeTurns)
struct UsabilityTests {
    @Test(
        "-h works like --help in every sample", arguments: ["switches", "attractions", "avatars"])
    func shortHelp(sample: String) async throws {
        let short = try await SampleRunner.run(sample, ["-h"])
        let long = try await SampleRunner.run(sample, ["--help"])

        #expect(short.status == 0)
        #expect(short.errors.isEmpty)
        #expect(short.output == long.output)
        #expect(short.output.hasPrefix("USAGE: \(sample)"))
    }

    @Test(
        "every executable's --help lines its options' descriptions up in one column",
        arguments: [
            "switches", "attractions", "avatars", "switches-essentials", "avatars-essentials",
            "attractions-essentials",
        ])
    func helpColumns(sample: String) async throws {
        let help = try await SampleRunner.run(sample, ["--help"]).output
        let options = help.components(separatedBy: "OPTIONS:").dropFirst().first ?? ""
        let lines = options.components(separatedBy: "\n\n").first?.split(separator: "\n") ?? []
        // Where each option's description starts: after the run of two or more spaces that
        // follows the option itself.
        let columns = lines.filter { $0.hasPrefix("  -") }.compactMap { line in
            line.dropFirst(2).range(of: "  ").map {
                line.distance(from: line.startIndex, to: $0.lowerBound)
                    + (line[$0.lowerBound...].prefix { $0 == " " }.count)
            }
        }
        #expect(Set(columns).count <= 1, "\(sample) --help:\n\(options)")
    }

    @Test(
        "an empty, blank or folder-like --store path is a usage error that names the real problem",
        arguments: [
            ("", "it was given ''"), ("   ", "is blank"),
            ("/tmp/", "ends with '/', so it names a folder"),
        ])
    func oddStorePaths(path: String, problem: String) async throws {
        let run = try await SampleRunner.run(
            "attractions", ["--store", path], script: "add Louvre\n")

        #expect(run.status == 64)
        #expect(run.errorLines.first?.hasPrefix("error: --store") == true, "\(run.errors)")
        #expect(run.errorLines.first?.contains(problem) == true, "\(run.errors)")
        #expect(run.output.isEmpty)
    }

    @Test(
        "a usage error is short: the error, the usage line, and where the rest is",
        arguments: ["switches", "attractions", "avatars"])
    func shortUsageError(sample: String) async throws {
        let run = try await SampleRunner.run(sample, ["--no-such-option"])

        #expect(run.status == 64)
        #expect(run.errorLines.count == 3, "\(run.errors)")
        #expect(run.errorLines.first?.hasPrefix("error: ") == true)
        #expect(run.errorLines.dropFirst().first?.hasPrefix("USAGE: \(sample)") == true)
        #expect(run.errorLines.last == "Run with --help for the options and commands.")
    }

    @Test("a --store in a folder that does not exist is refused, and no folder is made")
    func storeInMissingFolder() async throws {
        let missing = FileManager.default.temporaryDirectory.appending(
            path: "missing-\(UUID().uuidString)")
        let run = try await SampleRunner.run(
            "attractions", ["--store", missing.appending(path: "x/a.json").path],
            script: "add Louvre\n")

        #expect(run.status == 64)
        #expect(run.errorLines.first?.contains("which does not exist") == true, "\(run.errors)")
        #expect(!FileManager.default.fileExists(atPath: missing.path))
    }

    @Test("--store= with nothing after the equals sign is refused the same way")
    func emptyStoreAfterEquals() async throws {
        let run = try await SampleRunner.run("attractions", ["--store="], script: "")

        #expect(run.status == 64)
        #expect(run.errorLines.first?.contains("it was given ''") == true, "\(run.errors)")
    }

    @Test("an option given twice is a usage error, whichever form each time")
    func optionTwice() async throws {
        for arguments in [
            ["--store", "a.json", "--store", "b.json"], ["--store=a.json", "--store=b.json"],
            ["--store", "a.json", "--store=b.json"],
        ] {
            let run = try await SampleRunner.run("attractions", arguments, script: "")
            #expect(run.status == 64, "\(arguments)")
            #expect(run.errorLines.first == "error: --store is given twice", "\(arguments)")
        }
    }

    @Test("a folder given as the store is named as a folder")
    func folderStore() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "store-folder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let run = try await SampleRunner.run("attractions", ["--store", folder.path], script: "")

        #expect(run.status == 1)
        #expect(run.errorLines.first?.contains("it is a folder, not a file") == true)
    }

    @Test("one mailbox is one contact whatever its case, and shows as it was typed")
    func addressCase() async throws {
        let run = try await SampleRunner.run(
            "avatars", script: "add Bob@Example.COM Bob\nadd bob@example.com Bob again\nload 5\n")

        #expect(run.outputLines.contains { $0.contains("5. Bob <Bob@Example.COM>") })
        #expect(!run.output.contains("6. "))
        #expect(run.errorLines == ["error: bob@example.com is already a contact"])
        #expect(run.output.contains("5. Bob <Bob@Example.COM>  [avatar: 8×8 PPM]"))
    }

    @Test("a refused command's error is shown once, on standard error, not also on the screen")
    func errorShownOnce() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "once-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let run = try await SampleRunner.run(
            "attractions", ["--store", folder.appending(path: "a.json").path],
            script: "add Louvre\ndelete 9\nundo\nundo\n")

        let all = run.output + run.errors
        #expect(all.components(separatedBy: "no attraction at position 9").count == 2)
        #expect(all.components(separatedBy: "nothing to undo").count == 2)
        #expect(run.errorLines.count == 2)
    }
}
