import Foundation
import Testing

/// The tutorial's listings exist (its code is built, its step sizes and quizzes are checked, and
/// its finished app is run by `Scripts/check-tutorial.py` in CI).
@Suite("The tutorial")
struct TutorialTests {
    private static let folder = PackageReader.packageRoot.appending(
        path: "Documentation/MVCLayers.docc/Tutorials")
    private static let chapters = [
        "PackingListModel", "PackingListStore", "PackingListFacade", "PackingListPresenter",
        "PackingListTerminal",
    ]

    @Test("the table of contents lists every chapter, and every listing's file exists")
    func listingsExist() throws {
        let toc = try String(
            contentsOf: Self.folder.appending(path: "PackingList.tutorial"), encoding: .utf8)
        let resources = Self.folder.deletingLastPathComponent().appending(path: "Resources")
        for chapter in Self.chapters {
            #expect(toc.contains("doc:\(chapter)"))
            let tutorial = try String(
                contentsOf: Self.folder.appending(path: "\(chapter).tutorial"), encoding: .utf8)
            let files = tutorial.matches(of: /file: ([\w.-]+)\)/).map { String($0.output.1) }
            #expect(!files.isEmpty)
            for file in files {
                #expect(
                    FileManager.default.fileExists(atPath: resources.appending(path: file).path),
                    "\(chapter) shows \(file), which is missing")
            }
        }
    }
}
