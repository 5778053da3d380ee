import AttractionsStorage
import Foundation
import MVCDocumentStore
import MVCListStore
import MVCModel
import MVCStore
import Testing

/// The version this build writes, from the format itself: a version bump edits no test.
private let currentVersion = FileFormat<[Attraction]>.attractions.currentVersion

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("A save respects the file it replaces")
struct FileRespectTests {
    private func file(_ url: URL) -> DocumentFile<[Attraction]> {
        DocumentFile(url: url, format: .attractions)
    }

    private func mode(_ path: String) -> mode_t {
        var status = stat()
        _ = stat(path, &status)
        return status.st_mode & 0o7777
    }

    @Test("a new file is readable and writable by its owner only")
    func newFileIsPrivate() async throws {
        let folder = try TemporaryFolder()

        try await file(folder.file("a.json")).overwrite(with: [Attraction(name: "Louvre")])

        #expect(mode(folder.file("a.json").path) == 0o600)
    }

    @Test(
        "a save keeps the permission bits the file had", arguments: [mode_t(0o600), 0o640, 0o444])
    func permissionsKept(bits: mode_t) async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        try await file(url).overwrite(with: [Attraction(name: "Louvre")])
        chmod(url.path, bits)

        try await file(url).overwrite(with: [Attraction(name: "Orsay")])

        #expect(mode(url.path) == bits)
    }

    @Test("a save through a symbolic link replaces its target and keeps the link")
    func symbolicLinkKept() async throws {
        let folder = try TemporaryFolder()
        let target = folder.file("real.json")
        let link = folder.file("link.json")
        try await file(target).overwrite(with: [Attraction(name: "Louvre")])
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)

        try await file(link).overwrite(with: [Attraction(name: "Orsay")])

        let destination = try FileManager.default.destinationOfSymbolicLink(atPath: link.path)
        #expect(destination == target.path)
        #expect(try await file(target).load()?.map(\.name) == ["Orsay"])
    }

    @Test("a link to a file that does not exist yet creates the file at its target")
    func danglingLink() async throws {
        let folder = try TemporaryFolder()
        let link = folder.file("link.json")
        try FileManager.default.createSymbolicLink(
            atPath: link.path, withDestinationPath: "real.json")

        try await file(link).overwrite(with: [Attraction(name: "Louvre")])

        #expect(try await file(folder.file("real.json")).load()?.map(\.name) == ["Louvre"])
        #expect(
            (try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == "real.json")
    }

    @Test(
        "a link or a second name planted at the lock file's name never has its file's mode or group widened"
    )
    func plantedLockFileLeftAlone() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        try await file(url).overwrite(with: [Attraction(name: "Louvre")])
        chmod(url.path, 0o660)
        let lockPath = folder.file(".a.json.lock").path
        let secret = folder.file("secret").path
        try Data("private".utf8).write(to: URL(fileURLWithPath: secret))

        // A symbolic link: the save is refused, naming the link.
        chmod(secret, 0o600)
        unlink(lockPath)
        symlink(secret, lockPath)
        await #expect {
            try await file(url).overwrite(with: [Attraction(name: "Orsay")])
        } throws: { "\($0)".contains("\(lockPath) is a symbolic link") }
        #expect(mode(secret) == 0o600)
        #expect(try await file(url).load()?.map(\.name) == ["Louvre"])

        // A hard link: the lock works, and the file it names keeps its mode.
        unlink(lockPath)
        link(secret, lockPath)
        try await file(url).overwrite(with: [Attraction(name: "Orsay")])
        #expect(mode(secret) == 0o600)
    }

    @Test(
        "a new document is never written over one another program saved while the creation waited for the lock"
    )
    func createNeverReplaces() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        // Passes however long it holds: the creation checks for the file under the lock. The
        // pause only gives a check made before taking the lock (the bug) the time to be made.
        let other = try await OtherSQLiteProgram.holdingDocumentLock(
            folder.file(".a.json.lock").path, for: 0.2, thenWriting: "theirs", to: url)

        let creating = Task { try await file(url).create([Attraction(name: "Louvre")]) }
        try await other.release()

        await #expect {
            try await creating.value
        } throws: { "\($0)".contains("a file is already there; it was left as it is") }
        #expect(try String(contentsOf: url, encoding: .utf8) == "theirs")
    }

    @Test("a file whose rows break the model's rules is refused with its row and field, untouched")
    func ruleBreakingFileRefused() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        let id = UUID().uuidString
        let text = """
            {"formatVersion":\(currentVersion),"document":[{"id":"\(id)","name":"Louvre","notes":""},\
            {"id":"\(UUID().uuidString)","name":"  ","notes":""}]}
            """
        try Data(text.utf8).write(to: url)

        await #expect(
            throws: PersistenceError.brokenRule(
                path: url.path,
                reason: "row 2, field “name”: the name starts or ends with whitespace")
        ) { try await file(url).load() }
        #expect(try Data(contentsOf: url) == Data(text.utf8))
    }

    @Test("two rows with one id are refused, so an edit can never land on the wrong row")
    func duplicateIDsRefused() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        let id = UUID().uuidString
        let text = """
            {"formatVersion":\(currentVersion),"document":[{"id":"\(id)","name":"Louvre","notes":""},\
            {"id":"\(id)","name":"Orsay","notes":""}]}
            """
        try Data(text.utf8).write(to: url)

        await #expect(
            throws: PersistenceError.brokenRule(
                path: url.path, reason: "rows 1 and 2 have the same id \(id)")
        ) { try await AttractionStore.open(at: url) }
        #expect(try Data(contentsOf: url) == Data(text.utf8))
    }

    @Test("a device or a pipe given as the file is refused at once, not read for ever")
    func notARegularFile() async throws {
        let folder = try TemporaryFolder()
        let pipe = folder.file("pipe.json")
        #expect(mkfifo(pipe.path, 0o600) == 0)

        for url in [URL(fileURLWithPath: "/dev/zero"), pipe] {
            await #expect(
                throws: PersistenceError.unreadable(
                    path: url.path,
                    reason: "it is not a regular file (a device, a pipe or a socket)")
            ) { try await AttractionStore.open(at: url) }
        }
    }

    @Test(
        "a path the kernel resolves to an anonymous pipe (/dev/stdin fed by a pipe) is refused, not taken for a missing file"
    )
    func anonymousPipeRefused() async throws {
        let pipe = Pipe()
        let url = URL(fileURLWithPath: "/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)")

        await #expect(
            throws: PersistenceError.unreadable(
                path: url.path,
                reason: "it is not a regular file (a device, a pipe or a socket)")
        ) { try await AttractionStore.open(at: url) }
        withExtendedLifetime(pipe) {}
    }

    @Test("an escape sequence stored by an older version is refused like any broken rule")
    func storedEscapeRefused() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        let text = """
            {"formatVersion":1,"document":[{"id":"\(UUID().uuidString)","name":"\\u001b[31mRed"}]}
            """
        try Data(text.utf8).write(to: url)

        await #expect(throws: PersistenceError.self) { try await file(url).load() }
        #expect(try Data(contentsOf: url) == Data(text.utf8))
    }

    @Test(
        "a create whose lock file is deleted while another program creates the file is refused, and leaves that file"
    )
    func createRefusedAfterItsLockWasLost() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        let theirs = "written by the other program"
        let steps = CreatingMeanwhileSteps(
            lockPath: folder.file(".a.json.lock").path, target: url.path, text: theirs)

        #expect(throws: PersistenceError.self) {
            try file(url).create([Attraction(name: "Louvre")], steps: steps)
        }
        #expect(try String(contentsOf: url, encoding: .utf8) == theirs)
    }
}

/// The real steps, but once the new version is on disk and before it is put in place, another
/// program deletes the document's lock file and creates the document, as a create racing this one
/// would once the lock was gone.
private struct CreatingMeanwhileSteps: FileReplacementSteps {
    private let real = POSIXReplacementSteps()
    let lockPath: String
    let target: String
    let text: String

    func createNew(_ path: String) throws(FileReplacementFailure) -> Int32 {
        try real.createNew(path)
    }
    func copyPermissions(from target: String, to handle: Int32) throws(FileReplacementFailure) {
        try real.copyPermissions(from: target, to: handle)
    }
    func write(_ data: Data, to handle: Int32) throws(FileReplacementFailure) {
        try real.write(data, to: handle)
    }
    func sync(_ handle: Int32) throws(FileReplacementFailure) {
        try real.sync(handle)
        unlink(lockPath)
        _ = FileManager.default.createFile(atPath: target, contents: Data(text.utf8))
    }
    func close(_ handle: Int32) { real.close(handle) }
    func rename(_ source: String, to destination: String) throws(FileReplacementFailure) {
        try real.rename(source, to: destination)
    }
    func syncFolder(_ path: String) throws(FileReplacementFailure) { try real.syncFolder(path) }
    func remove(_ path: String) { real.remove(path) }
}
