import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One attractions file shared by the members of a group, each running the sample as themselves.
///
/// Needs two real users: the test runs the sample through `setpriv` with numeric user and group
/// ids, which only the superuser may do (CI runs as root), and is skipped otherwise.
@Suite(
    "An attractions file shared by a group",
    .enabled(
        if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")),
    .samplesTakeTurns)
struct GroupSharingTests {
    private static let owner: uid_t = 5_001
    private static let member: uid_t = 5_002
    private static let group: gid_t = 4_242

    private let folder = FileManager.default.temporaryDirectory.appending(
        path: "group-sharing-\(UUID().uuidString)")
    private var store: String { folder.appending(path: "attractions.json").path }

    /// Runs the sample as `user`, a member of the shared group, with `script` as its input.
    private func run(as user: uid_t, primaryGroup: gid_t, _ script: String) async throws
        -> SampleRun
    {
        let input = folder.appending(path: "script-\(UUID().uuidString)")
        try Data(script.utf8).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        // Files, not pipes: a sample that hangs is then killed by the deadline, not waited for
        // in a read that never ends.
        let output = folder.appending(path: "out-\(UUID().uuidString)")
        let errors = folder.appending(path: "err-\(UUID().uuidString)")
        try Data().write(to: output)
        try Data().write(to: errors)
        defer {
            try? FileManager.default.removeItem(at: output)
            try? FileManager.default.removeItem(at: errors)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = [
            "--reuid=\(user)", "--regid=\(primaryGroup)", "--groups=\(Self.group)",
            try SampleRunner.executable(named: "attractions").path, "--store", store,
        ]
        process.standardInput = try FileHandle(forReadingFrom: input)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        try await SampleRunner.deadline(for: process).wait()
        return SampleRun(
            output: try SampleRunner.text(of: output),
            errors: try SampleRunner.text(of: errors),
            status: process.terminationStatus)
    }

    private func status(of path: String) -> stat {
        var status = stat()
        _ = stat(path, &status)
        return status
    }

    @Test("a member of the file's group saves it, and the group and its owner can still save")
    func memberAndOwnerTakeTurns() async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(chmod(folder.path, 0o777) == 0)

        // The owner makes the list and shares it with the group, as `chmod g+rw` would.
        let first = try await run(as: Self.owner, primaryGroup: Self.group, "add Louvre\n")
        #expect(first.status == 0, "\(first.errors)")
        #expect(chmod(store, 0o660) == 0)

        let second = try await run(as: Self.member, primaryGroup: Self.member, "add Orsay\n")
        #expect(second.status == 0, "\(second.errors)")
        // (A coverage build's sample may complain that it cannot write its profile as this user.)
        #expect(!second.errors.contains("error:"), "\(second.errors)")
        // The member's save keeps the file's group (it cannot keep the owner).
        #expect(status(of: store).st_gid == Self.group)
        #expect(status(of: store).st_mode & 0o777 == 0o660)

        let third = try await run(as: Self.owner, primaryGroup: Self.owner, "add Eiffel\n")
        #expect(third.status == 0, "\(third.errors)")
        #expect(third.output.contains("3. Eiffel"))
        #expect(third.output.contains("2. Orsay"))
    }

    @Test("a user who may not write in the folder is told which file could not be made")
    func folderWithoutWritePermission() async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(chmod(folder.path, 0o755) == 0)  // the superuser's; others may only read
        let empty = Data(#"{"document":[],"formatVersion":1}"#.utf8)
        #expect(FileManager.default.createFile(atPath: store, contents: empty))
        #expect(chmod(store, 0o666) == 0)

        let withoutLock = try await run(as: Self.owner, primaryGroup: Self.owner, "add Louvre\n")
        #expect(withoutLock.errors.contains("cannot create the lock file"), "\(withoutLock.errors)")

        let lock = folder.appending(path: ".attractions.json.lock").path
        #expect(FileManager.default.createFile(atPath: lock, contents: nil))
        let withLock = try await run(as: Self.owner, primaryGroup: Self.owner, "add Louvre\n")
        #expect(
            withLock.errors.contains("cannot create a temporary file in \(folder.path)"),
            "\(withLock.errors)")
        #expect(withLock.status == 1)
    }

    @Test(
        "a member who may only read the file cannot replace it, and a lock file from 0600 days is opened up"
    )
    func readOnlyMemberAndOldLockFile() async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(chmod(folder.path, 0o777) == 0)
        let first = try await run(as: Self.owner, primaryGroup: Self.group, "add Louvre\n")
        #expect(first.status == 0, "\(first.errors)")
        let lock = folder.appending(path: ".attractions.json.lock").path
        #expect(chmod(lock, 0o600) == 0)  // as earlier versions made it

        // The owner's next save opens the old lock file up for the group.
        #expect(chmod(store, 0o640) == 0)
        let owner = try await run(as: Self.owner, primaryGroup: Self.group, "add Eiffel\n")
        #expect(owner.status == 0, "\(owner.errors)")
        #expect(status(of: lock).st_mode & 0o044 == 0o044)

        // Read only for the group: the member is refused, and the file stays the owner's.
        let reader = try await run(as: Self.member, primaryGroup: Self.member, "add Orsay\n")
        #expect(reader.errors.contains("read-only for this user"), "\(reader.errors)")
        #expect(status(of: store).st_uid == Self.owner)

        // Shared for writing, the member saves.
        #expect(chmod(store, 0o660) == 0)
        let member = try await run(as: Self.member, primaryGroup: Self.member, "add Orsay\n")
        #expect(member.status == 0, "\(member.errors)")
        #expect(member.output.contains("3. Orsay"))
    }
}
