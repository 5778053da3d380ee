import Foundation
import MVCModel
import MVCPersistence
import MVCStore
import Testing

/// A save of a document knows the file it wrote, and only that file: the next check reads
/// nothing after its own save, and reads another program's write that lands just after it.
@Suite("A document save and the file it wrote")
struct DocumentSaveIdentityTests {
    @Test("a check right after a save reads nothing: the save knows the file it wrote")
    func checkAfterSaveReadsNothing() async throws {
        let folder = try TemporaryFolder()
        let file = DocumentFile(url: folder.file("a.json"), format: .attractions)
        let saved = try await file.save(
            [Attraction(name: "Louvre")], over: .missing,
            merge: { _, mine, _ in
                MergeResult(document: mine)
            })

        guard case .unchanged(_, reread: false) = try await file.check(against: saved.snapshot)
        else {
            Issue.record("the file this process just saved was read again, as if another wrote it")
            return
        }
    }

    @Test(
        "another program's write of the same length landing just after a save's rename is read at the next check, not taken for the save's"
    )
    func sameLengthWriteAfterTheRename() async throws {
        let folder = try TemporaryFolder()
        var file = DocumentFile(url: folder.file("a.json"), format: .attractions)
        // The other program writes in place (same inode, same length) a second later.
        file.replacementSteps = WriteAfterRename { path in
            let text = try String(contentsOfFile: path, encoding: .utf8)
            try Data(text.replacingOccurrences(of: "Louvre", with: "Orsays").utf8)
                .write(to: URL(fileURLWithPath: path))
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: 1)], ofItemAtPath: path)
        }
        let saved = try await file.save(
            [Attraction(name: "Louvre")], over: .missing,
            merge: { _, mine, _ in MergeResult(document: mine) })

        guard case .changed(let now) = try await file.check(against: saved.snapshot) else {
            Issue.record("the other program's write was taken for this save's, and never read")
            return
        }
        #expect(now.document?.map(\.name) == ["Orsays"])
    }
}

/// The real file-system calls of a replacement, with `afterRename` run just after the rename:
/// another program acting in that window.
private struct WriteAfterRename: FileReplacementSteps {
    let real = POSIXReplacementSteps()
    let afterRename: @Sendable (String) throws -> Void

    init(_ afterRename: @escaping @Sendable (String) throws -> Void) {
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
    func syncFolder(_ path: String) throws(FileReplacementFailure) { try real.syncFolder(path) }
    func remove(_ path: String) { real.remove(path) }
}
