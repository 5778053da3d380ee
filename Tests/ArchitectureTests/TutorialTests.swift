import Foundation
import Testing

/// The tutorial's quizzes and listings stay true to the tutorial (its code is built by
/// `Scripts/check-tutorial.py` in CI).
@Suite("The tutorial")
struct TutorialTests {
    private static let folder = PackageReader.packageRoot.appending(
        path: "Documentation/MVCLayers.docc/Tutorials")
    private static let chapters = [
        "PackingListModel", "PackingListStore", "PackingListFacade", "PackingListPresenter",
        "PackingListTerminal",
    ]

    @Test(
        "every chapter has a quiz, and each right answer is something the chapter says",
        arguments: chapters)
    func quizAnswersComeFromTheText(chapter: String) throws {
        let tutorial = try String(
            contentsOf: Self.folder.appending(path: "\(chapter).tutorial"), encoding: .utf8)
        let parts = tutorial.components(separatedBy: "@Assessments")
        try #require(parts.count == 2, "\(chapter) has no quiz (@Assessments)")
        let text = Self.normalized(parts[0])
        let choices = Self.choices(in: parts[1])

        #expect(choices.filter(\.isCorrect).count >= 1)
        for choice in choices {
            let said = text.contains(Self.normalized(choice.answer))
            if choice.isCorrect {
                #expect(said, "\(chapter): the right answer “\(choice.answer)” is not in the text")
            } else {
                #expect(!said, "\(chapter): the wrong answer “\(choice.answer)” is in the text")
            }
        }
    }

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

    struct Choice {
        var answer: String
        var isCorrect: Bool
    }

    /// Each choice's answer: the first line of text inside its `@Choice(isCorrect:)` block.
    private static func choices(in assessments: String) -> [Choice] {
        assessments.matches(of: /@Choice\(isCorrect: (true|false)\) \{\s*([^\n]+)/).map {
            Choice(
                answer: String($0.output.2).trimmingCharacters(in: .whitespaces),
                isCorrect: $0.output.1 == "true")
        }
    }

    /// Lowercased, without backticks and final punctuation, with runs of whitespace as one space.
    private static func normalized(_ text: String) -> String {
        text.lowercased().replacingOccurrences(of: "`", with: "")
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
            .trimmingCharacters(in: CharacterSet(charactersIn: ".!?"))
    }
}
