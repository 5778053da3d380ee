import Foundation
import Testing

/// The essentials programs stay what a reader can take in at one sitting: at most three files
/// and 200 lines each (220 for attractions, whose editor has the most commands), only the
/// standard library and Foundation, and a first file that says the
/// post's idea, its bug, and which production files do the same with more.
@Suite("Each essentials program is small and whole")
struct EssentialsShapeTests {
    static let posts = ["Switches", "Avatars", "Attractions"]

    private static func files(of post: String) throws -> [(name: String, text: String)] {
        let folder = PackageReader.packageRoot.appending(path: "Samples/Essentials/\(post)")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            .filter { $0.hasSuffix(".swift") }
            .map { ($0, try String(contentsOf: folder.appending(path: $0), encoding: .utf8)) }
    }

    @Test(
        "at most three files and 200 lines (attractions 220), importing nothing but Foundation",
        arguments: posts)
    func size(post: String) throws {
        let files = try Self.files(of: post)
        let lines = files.map { $0.text.split(separator: "\n", omittingEmptySubsequences: false) }
        let count = lines.map { $0.count - ($0.last == "" ? 1 : 0) }.reduce(0, +)

        #expect((1...3).contains(files.count), "\(post) has \(files.count) files")
        let limit = post == "Attractions" ? 220 : 200
        #expect(count <= limit, "\(post) has \(count) lines")
        for file in files {
            let imports = Set(PackageReader.importedModules(in: file.text))
            #expect(imports.isSubset(of: ["Foundation"]), "\(file.name) imports \(imports)")
        }
    }

    @Test(
        "the first file opens with the idea, the bug, and production files that exist",
        arguments: posts)
    func opening(post: String) throws {
        let model = try #require(try Self.files(of: post).first { $0.name == "Model.swift" })
        let opening = model.text.split(separator: "\n").prefix { $0.hasPrefix("//") }
            .joined(separator: " ")

        #expect(opening.contains("The idea:"))
        #expect(opening.contains("bug"))
        let named = opening.matches(of: /(Modules|Adapters|Samples)\/[A-Za-z0-9\/+.]*[A-Za-z0-9\/]/)
            .map { String($0.output.0) }
        #expect(!named.isEmpty)
        for path in named {
            let url = PackageReader.packageRoot.appending(path: path)
            #expect(FileManager.default.fileExists(atPath: url.path), "\(path) does not exist")
        }
    }
}
