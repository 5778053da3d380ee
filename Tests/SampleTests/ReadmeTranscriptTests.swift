import Foundation
import Testing

/// Runs every transcript in README.md and compares it with what the sample really prints.
///
/// A transcript is a `$ printf '…' | swift run NAME …` line in a `text` block, then what it
/// prints. A line that is
/// only `…` stands for lines left out. Runs of one block share their files, so a second run can
/// find what the first saved; `/tmp/…` paths are given a fresh folder.
@Suite("README's transcripts are what the samples print", .samplesTakeTurns)
struct ReadmeTranscriptTests {
    /// One `$` command and the output the README shows for it.
    struct Transcript: CustomTestStringConvertible, Sendable {
        var index: Int
        var block: Int
        var command: String
        var sample: String
        var arguments: [String]
        var input: String
        var expected: [String]

        var testDescription: String { command }
    }

    static let transcripts: [Transcript] = {
        // Tests/SampleTests/ReadmeTranscriptTests.swift, three levels below the package.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let readme = root.appending(path: "README.md")
        guard let text = try? String(contentsOf: readme, encoding: .utf8) else { return [] }
        return parse(text)
    }()

    @Test("README has transcripts of every sample, and every $ line in them is one this test runs")
    func everySampleHasATranscript() async throws {
        #expect(Set(Self.transcripts.map(\.sample)) == ["switches", "avatars", "attractions"])
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appending(path: "README.md"), encoding: .utf8)
        let dollarLines = Self.blockLines(readme).filter { $0.hasPrefix("$ ") }.count
        #expect(
            dollarLines == Self.transcripts.count,
            "a $ line in README is not a transcript this test can run")
    }

    /// The lines of every `text` block of `markdown`.
    static func blockLines(_ markdown: String) -> [String] {
        var inBlock = false
        var lines: [String] = []
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "```text" {
                inBlock = true
            } else if line == "```" {
                inBlock = false
            } else if inBlock {
                lines.append(String(line))
            }
        }
        return lines
    }

    @Test("each README transcript is what the sample prints", arguments: transcripts)
    func transcriptIsTrue(_ transcript: Transcript) async throws {
        // A folder of its own: cases run in parallel.
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "readme-transcript-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // The earlier commands of the same block run first, so a later one finds their files.
        let sameBlock = Self.transcripts.filter {
            $0.block == transcript.block && $0.index <= transcript.index
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        var run = SampleRun(output: "", errors: "", status: 0)
        for step in sameBlock {
            let arguments = step.arguments.map {
                $0.hasPrefix("/tmp/") ? folder.path + $0.dropFirst("/tmp".count) : $0
            }
            run = try await SampleRunner.run(step.sample, arguments, script: step.input)
        }
        let actual = run.outputLines.map { $0.replacingOccurrences(of: folder.path, with: "/tmp") }

        #expect(
            Self.matches(actual, transcript.expected),
            "README shows:\n\(transcript.expected.joined(separator: "\n"))\nthe sample prints:\n\(actual.joined(separator: "\n"))"
        )
    }

    /// Whether `actual` is `expected`, where each `…` line of `expected` stands for any lines.
    static func matches(_ actual: [String], _ expected: [String]) -> Bool {
        var segments: [[String]] = [[]]
        for line in expected {
            if line.trimmingCharacters(in: .whitespaces) == "…" {
                segments.append([])
            } else {
                segments[segments.count - 1].append(line)
            }
        }
        var position = 0
        for (index, segment) in segments.enumerated() {
            if index == 0 {
                guard actual.starts(with: segment) else { return false }
                position = segment.count
            } else if index == segments.count - 1 {
                return actual.count - segment.count >= position
                    && Array(actual.suffix(segment.count)) == segment
            } else {
                guard
                    let found = (position...max(position, actual.count - segment.count)).first(
                        where: {
                            actual.count >= $0 + segment.count
                                && Array(actual[$0..<$0 + segment.count]) == segment
                        })
                else { return false }
                position = found + segment.count
            }
        }
        return position == actual.count
    }

    /// The transcripts of every `text` block of `markdown`.
    static func parse(_ markdown: String) -> [Transcript] {
        var found: [Transcript] = []
        var inBlock = false
        var block = 0
        var lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(
            String.init)[...]
        while let line = lines.popFirst() {
            if !inBlock {
                if line == "```text" {
                    inBlock = true
                    block += 1
                }
                continue
            }
            if line == "```" {
                inBlock = false
                continue
            }
            guard line.hasPrefix("$ ") else { continue }
            var command = String(line.dropFirst(2))
            while command.hasSuffix("\\"), let next = lines.popFirst() {
                command =
                    String(command.dropLast()).trimmingCharacters(in: .whitespaces) + " "
                    + next.trimmingCharacters(in: .whitespaces)
            }
            var expected: [String] = []
            while let next = lines.first, next != "```", !next.hasPrefix("$ ") {
                expected.append(next)
                lines.removeFirst()
            }
            if let transcript = transcript(
                command, index: found.count, block: block, expected: expected)
            {
                found.append(transcript)
            }
        }
        return found
    }

    /// `printf 'INPUT' | swift run NAME ARGUMENTS  # comment`, read.
    static func transcript(_ command: String, index: Int, block: Int, expected: [String])
        -> Transcript?
    {
        let withoutComment = command.components(separatedBy: "  #").first ?? command
        guard withoutComment.hasPrefix("printf '"),
            let close = withoutComment.dropFirst("printf '".count).firstIndex(of: "'")
        else { return nil }
        let escaped = withoutComment[
            withoutComment.index(withoutComment.startIndex, offsetBy: 8)..<close]
        let rest = withoutComment[withoutComment.index(after: close)...]
            .trimmingCharacters(in: .whitespaces)
        guard rest.hasPrefix("| swift run ") else { return nil }
        let words = rest.dropFirst("| swift run ".count).split(separator: " ").map(String.init)
        guard let sample = words.first else { return nil }
        let input = escaped.replacingOccurrences(of: "\\n", with: "\n")
            .replacingOccurrences(of: "\\t", with: "\t")
        return Transcript(
            index: index, block: block, command: command, sample: sample,
            arguments: Array(words.dropFirst()),
            input: input, expected: expected)
    }
}
