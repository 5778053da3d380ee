import Foundation
import Testing

/// The guide's "Changing the package" shows two real diffs; these checks keep the page and the
/// diffs in `Documentation/Examples/` saying the same thing, and hold each change to its budget.
/// (CI applies, builds and tests the diffs themselves: `Scripts/check-worked-examples.sh`.)
@Suite("The worked examples of changing the package")
struct WorkedExampleTests {
    private static let root = PackageReader.packageRoot

    /// One file's part of a diff: its path, and its text from `diff --git` on.
    private struct FilePart {
        var path: String
        var text: String
        var added: Int
        var removed: Int
    }

    private static func parts(of example: String) throws -> [FilePart] {
        let diff = try String(
            contentsOf: root.appending(path: "Documentation/Examples/\(example).diff"),
            encoding: .utf8)
        return diff.components(separatedBy: "\ndiff --git ").enumerated().compactMap {
            index, chunk in
            let text = index == 0 ? chunk : "diff --git " + chunk
            guard text.hasPrefix("diff --git a/") else { return nil }
            let header = text.dropFirst("diff --git a/".count)
            let path = String(header.prefix { $0 != " " })
            let lines = text.split(separator: "\n")
            return FilePart(
                path: path, text: text.hasSuffix("\n") ? text : text + "\n",
                added: lines.filter { $0.hasPrefix("+") && !$0.hasPrefix("+++") }.count,
                removed: lines.filter { $0.hasPrefix("-") && !$0.hasPrefix("---") }.count)
        }
    }

    private static var article: String {
        get throws {
            try String(
                contentsOf: root.appending(
                    path: "Documentation/MVCLayers.docc/ChangingThePackage.md"),
                encoding: .utf8)
        }
    }

    @Test(
        "each example stays within its budget of files and of production code files, none of them in the list core, a store, an adapter or a file format",
        arguments: [("adding-a-field", 6, 3), ("adding-a-switch", 7, 2)])
    func budget(example: String, maximumFiles: Int, maximumCodeFiles: Int) throws {
        let parts = try Self.parts(of: example)
        let code = parts.map(\.path).filter {
            $0.hasSuffix(".swift") && !$0.hasPrefix("Tests/") && !$0.hasPrefix("Documentation/")
        }

        #expect(!parts.isEmpty, "\(example).diff holds no change")
        #expect(
            parts.count <= maximumFiles,
            "\(example) touches \(parts.count) files: \(parts.map(\.path))")
        #expect(
            code.count <= maximumCodeFiles, "\(example) changes \(code.count) code files: \(code)")
        // The generic core, the stores, the adapters and the attractions' file format stay as
        // they are: a field is described once, in the model.
        let untouched = [
            "Modules/Elements/", "Modules/ListStore/", "Modules/Store/", "Adapters/",
            "Samples/AttractionsStorage/",
        ]
        for part in parts {
            for folder in untouched {
                #expect(!part.path.hasPrefix(folder), "\(example) changes \(part.path)")
            }
        }
    }

    @Test(
        "the article lists every file each example changes, with its counts, and shows its code as the diff has it",
        arguments: ["adding-a-field", "adding-a-switch"])
    func articleMatchesTheDiff(example: String) throws {
        let article = try Self.article
        let parts = try Self.parts(of: example)
        let heading =
            "The whole change, \(parts.count) files (`Documentation/Examples/\(example).diff`):"

        #expect(article.contains(heading), "the article does not say: \(heading)")
        for part in parts {
            let line = "- `\(part.path)`: +\(part.added) −\(part.removed)"
            #expect(article.contains(line), "the article does not list: \(line)")
            if part.path.hasPrefix("Modules/") {
                #expect(
                    article.contains("```diff\n" + part.text + "```"),
                    "the article does not show \(part.path) as \(example).diff changes it")
            }
        }
    }

    @Test("every page that says how many switches the sample has says as many as the model lists")
    func switchesCounted() throws {
        let model = try String(
            contentsOf: Self.root.appending(path: "Modules/Model/Switches/SwitchesModel.swift"),
            encoding: .utf8)
        let count = model.matches(of: #/Switch\(name: "/#).count
        let words = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
        try #require((1...words.count).contains(count), "the model lists \(count) switches")
        let places = [
            "README.md", "Documentation/MVCLayers.docc/MVCLayers.md",
            "Modules/Model/MVCModel.docc/MVCModel.md", "Modules/Model/Switches/SwitchesModel.swift",
            "Samples/Switches/SwitchesScreen.swift", "Samples/Switches/main.swift",
        ]
        for place in places {
            let text = try String(contentsOf: Self.root.appending(path: place), encoding: .utf8)
            let pattern = #/\b(one|two|three|four|five|six|seven|eight|nine) (switches|buttons)\b/#
            for said in text.matches(of: pattern.ignoresCase()) {
                #expect(
                    said.1.lowercased() == words[count - 1],
                    "\(place) says “\(said.0)”; the model lists \(count) switches")
            }
        }
    }
}
