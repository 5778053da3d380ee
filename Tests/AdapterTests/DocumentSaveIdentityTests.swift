import AttractionsStorage
import Foundation
import MVCDocumentStore
import MVCListStore
import MVCModel
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
        file.replacementSteps = AlteredReplacementSteps { path in
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
