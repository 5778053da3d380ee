import Foundation
import Testing

/// A name is taken as the bytes given, or refused: never read as another name.
@Suite("Arguments that are not UTF-8", .samplesTakeTurns)
struct ArgumentBytesTests {
    @Test(
        "a --store whose bytes are not UTF-8 is refused, naming them, and no file is made",
        arguments: ["json", "sqlite"])
    func storeNotUTF8(format: String) async throws {
        let (status, message, made) = try await Self.runAttractions(
            "exec \"$0\" --store \"$(printf 'list-\\377.\(format)')\" </dev/null")

        #expect(status == 64)
        #expect(message.contains("(list-\\xff.\(format)) is not valid UTF-8"), "\(message)")
        #expect(made == [])
    }

    @Test(
        "a HOME, or a current folder under a relative --store, whose bytes are not UTF-8 is refused, naming it, and no folder is made",
        arguments: [
            ("HOME=\"$PWD/h-$(printf '\\377')\" exec \"$0\" </dev/null", "$HOME"),
            (
                "mkdir \"c-$(printf '\\376')\" && cd \"c-$(printf '\\376')\" && exec \"$0\" --store list.sqlite </dev/null",
                "the current folder"
            ),
        ])
    func environmentNotUTF8(script: String, named: String) async throws {
        let (status, message, made) = try await Self.runAttractions(
            "unset XDG_DATA_HOME; " + script)

        #expect(status == 64)
        #expect(message.contains("\(named) ("), "\(message)")
        #expect(message.contains("is not valid UTF-8"), "\(message)")
        // Nothing made: no list, and no folder under a name the bytes were turned into (U+FFFD);
        // only the folder the script made itself, if any.
        #expect(made.count <= 1, "\(made)")
    }

    @Test(
        "a scripted command whose bytes are not UTF-8 is refused, saying where, and the next is done"
    )
    func commandNotUTF8() async throws {
        let (status, message, made) = try await Self.runAttractions(
            "printf 'add Caf\\351\\nadd Fine\\n' | \"$0\" --store list.json >/dev/null;"
                + " echo \"exit status $?\" >&2; cat list.json >&2")

        #expect(status == 0 && message.contains("exit status 1"), "\(message)")
        #expect(
            message.contains(
                "bytes that are not UTF-8 text (or U+FFFD, which stands for them) at column 8"),
            "\(message)")
        #expect(!message.contains("\u{FFFD}") && message.contains("Fine"), "\(message)")
        #expect(made.contains("list.json"))
    }

    /// Runs `script` in `sh`, with the sample's path as `$0`, in a new empty folder: the exit
    /// status, what it wrote to standard error, and what is in the folder after it. (A shell
    /// passes the byte 0xFF as it is; Foundation's `Process` takes only strings.)
    private static func runAttractions(_ script: String) async throws -> (
        status: Int32, errors: String, made: [String]
    ) {
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "argument-bytes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, try SampleRunner.executable(named: "attractions").path]
        process.currentDirectoryURL = folder
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        let message = String(
            decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        try await SampleRunner.deadline(for: process).wait()
        return (
            process.terminationStatus, message,
            try FileManager.default.subpathsOfDirectory(atPath: folder.path)
        )
    }
}
