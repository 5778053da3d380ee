import Foundation
import MVCDocumentStore
import MVCObservation

/// A fresh folder for one test, removed when the test lets go of it.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appending(
            path: "mvclayers-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL {
        url.appending(path: name)
    }

    /// The names of the entries in the folder, sorted.
    func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

/// The bytes of a file, read through a file handle: `Data(contentsOf:)` leaks its buffer for an
/// empty file on Linux, which LeakSanitizer reports.
func contents(of url: URL) throws -> Data {
    let handle = try FileHandle(forReadingFrom: url)
    defer { try? handle.close() }
    return try handle.readToEnd() ?? Data()
}

/// Returns once `process` has exited, polling between short sleeps.
///
/// Not `waitUntilExit()`, which blocks the calling thread: called from a test on the main
/// actor, it held every other test's main-actor work (their waits for another process's edit
/// among them) for as long as the child took to start and end, which on a loaded machine was
/// long enough for those waits to give up.
func exited(_ process: Process) async {
    while process.isRunning { try? await Task.sleep(for: .milliseconds(5)) }
}

/// Where a child process's output goes: a temporary file, read once the child has exited.
///
/// Not a pipe: a pipe's write end is inherited by any child another test starts meanwhile, so
/// reading the pipe to its end waits for that child to exit too. When that child waits for the
/// actor the read blocks (a test's next step), the whole run hangs: CI caught one, with the
/// main actor blocked in such a read for as long as CI let it run.
final class ChildOutput {
    let handle: FileHandle
    private let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appending(
            path: "child-output-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown)
        }
        handle = try FileHandle(forWritingTo: url)
    }

    deinit {
        try? handle.close()
        try? FileManager.default.removeItem(at: url)
    }

    /// What the child wrote; for once it has exited.
    func text() throws -> String {
        String(decoding: try contents(of: url), as: UTF8.self)
    }
}

/// The real file-system calls of a replacement, but for what a test changes: something done
/// just after the rename (another program acting in that window), or a folder flush that fails.
struct AlteredReplacementSteps: FileReplacementSteps {
    private let real = POSIXReplacementSteps()
    let afterRename: @Sendable (String) throws -> Void
    let folderSyncFailure: String?

    init(
        folderSyncFailure: String? = nil,
        afterRename: @escaping @Sendable (String) throws -> Void = { _ in }
    ) {
        self.folderSyncFailure = folderSyncFailure
        self.afterRename = afterRename
    }

    func createNew(_ path: String) throws(FileReplacementFailure) -> Int32 {
        try real.createNew(path)
    }
    func copyPermissions(from target: String, to handle: Int32) throws(FileReplacementFailure) {
        try real.copyPermissions(from: target, to: handle)
    }
    func write(_ data: Data, to handle: Int32) throws(FileReplacementFailure) {
        try real.write(data, to: handle)
    }
    func sync(_ handle: Int32) throws(FileReplacementFailure) { try real.sync(handle) }
    func close(_ handle: Int32) { real.close(handle) }
    func rename(_ source: String, to destination: String) throws(FileReplacementFailure) {
        try real.rename(source, to: destination)
        do { try afterRename(destination) } catch { throw FileReplacementFailure("\(error)") }
    }
    func syncFolder(_ path: String) throws(FileReplacementFailure) {
        if let folderSyncFailure { throw FileReplacementFailure(folderSyncFailure) }
        try real.syncFolder(path)
    }
    func remove(_ path: String) { real.remove(path) }
}
