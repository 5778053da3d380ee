import Foundation
import Testing

/// A database in a folder this user may not write, run as that user would run it.
///
/// SQLite cannot make its log there, so it is read as a file nothing changes. The sample runs as
/// another user (`setpriv`), since root may write any folder.
@Suite("A database in a folder this user may not write", .samplesTakeTurns)
struct UnwritableFolderTests {
    /// Whether this process may run the sample as user `nobody`: root, `setpriv`, and a sample
    /// that user can reach (a checkout under a folder only root may enter cannot be).
    static let canChangeUser: Bool = {
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
            let sample = try? SampleRunner.executable(named: "attractions")
        else { return false }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        probe.arguments = [
            "--reuid=65534", "--regid=65534", "--clear-groups", "/bin/sh", "-c",
            "test -x \"$0\"", sample.path,
        ]
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

    @Test(
        "it lists, read-only, and an edit says the folder is why it is not saved",
        .enabled(if: canChangeUser, "needs root, setpriv and a sample user nobody can run"))
    func listsReadOnly() async throws {
        let folder = URL(fileURLWithPath: "/tmp/mvclayers-unwritable-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appending(path: "a.sqlite").path
        _ = try await SampleRunner.run("attractions", ["--store", store], script: "add Louvre\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: store)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = [
            "--reuid=65534", "--regid=65534", "--clear-groups",
            try SampleRunner.executable(named: "attractions").path, "--store", store,
        ]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        input.fileHandleForWriting.write(Data("list\nadd Orsay\n".utf8))
        try input.fileHandleForWriting.close()
        let text = String(
            decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        try await SampleRunner.deadline(for: process).wait()

        #expect(text.contains("1. Louvre"), "\(text)")
        #expect(text.contains("may not write its folder \(folder.path)"), "\(text)")
        #expect(!text.contains("attempt to write a readonly database"), "\(text)")
        #expect(process.terminationStatus == 1)
        #expect(
            try await SampleRunner.run("attractions", ["--store", store], script: "list\n")
                .output.contains("2. Orsay") == false)
    }
}
