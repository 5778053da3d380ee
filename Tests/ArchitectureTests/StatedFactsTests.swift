import Foundation
import Testing

/// What README.md and ARCHITECTURE.md say about the package's shape (its modules, its samples,
/// how many of each) is read and compared with the manifest, so a new module or sample cannot
/// leave them saying something else.
@Suite("README and ARCHITECTURE state the package as the manifest has it")
struct StatedFactsTests {
    private static let root = PackageReader.packageRoot
    private static let numbers = [
        "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
        "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    ]

    private static func text(_ name: String) throws -> String {
        try String(contentsOf: root.appending(path: name), encoding: .utf8)
    }

    /// The first column of each table row of `markdown` that names a module (`MVC…`).
    private static func tabledModules(in markdown: String) -> Set<String> {
        Set(
            markdown.split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("| ") else { return nil }
                let cell = line.dropFirst(2).prefix { $0 != "|" }
                    .trimmingCharacters(in: .whitespaces)
                    .trimmingCharacters(in: CharacterSet(charactersIn: "`"))
                return cell.hasPrefix("MVC") ? cell : nil
            })
    }

    @Test("README's table of products to import lists every library product, and nothing else")
    func readmeProducts() async throws {
        let listed = Self.tabledModules(in: try Self.text("README.md"))
        let products = Set(try await PackageReader.libraryProducts().keys)

        #expect(
            listed == products,
            "README lists \(listed.subtracting(products)) too many, misses \(products.subtracting(listed))"
        )
    }

    @Test("ARCHITECTURE's module table lists every library module, and nothing else")
    func architectureModules() async throws {
        let listed = Self.tabledModules(in: try Self.text("ARCHITECTURE.md"))
        let modules = Set(
            try await PackageReader.libraryProducts().values.flatMap { $0 }.filter {
                $0.hasPrefix("MVC")
            }
        )

        #expect(
            listed == modules,
            "ARCHITECTURE lists \(listed.subtracting(modules)) too many, misses \(modules.subtracting(listed))"
        )
    }

    @Test("every count of samples or modules README and ARCHITECTURE state is the manifest's")
    func statedCounts() async throws {
        let samples = try await PackageReader.executableProducts().filter {
            $0 != "benchmarks" && !$0.hasSuffix("-essentials")
        }
        .count
        let modules = Set(try await PackageReader.libraryProducts().values.flatMap { $0 }).count
        let actual = [
            "samples": samples, "sample programs": samples, "modules": modules,
            "library modules": modules,
        ]
        var stated = 0
        for file in ["README.md", "ARCHITECTURE.md"] {
            let text = try Self.text(file).lowercased()
            for match in text.matches(
                of:
                    /\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve) (sample programs|samples|library modules|modules)\b/
            ) {
                let (word, noun) = (String(match.output.1), String(match.output.2))
                stated += 1
                #expect(
                    Self.numbers[word] == actual[noun],
                    "\(file) says “\(word) \(noun)”; the manifest has \(actual[noun] ?? 0)")
            }
        }
        #expect(stated > 0, "README and ARCHITECTURE state no count at all")
    }
}

@Suite("Every path README and ARCHITECTURE name exists")
struct NamedPathTests {
    @Test(
        "every repository path or file name in README.md and ARCHITECTURE.md names a file or folder that exists",
        arguments: ["README.md", "ARCHITECTURE.md"])
    func namedPathsExist(document: String) throws {
        let root = PackageReader.packageRoot
        let text = try String(contentsOf: root.appending(path: document), encoding: .utf8)
        let names = NamedPaths.candidates(in: text)
        #expect(names.count > 10, "\(document) names only \(names)")
        let everyFileName = NamedPaths.fileNames(under: root)
        for name in names {
            if name.contains("/") {
                #expect(
                    FileManager.default.fileExists(atPath: root.appending(path: name).path),
                    "\(document) names \(name), which does not exist")
            } else {
                #expect(
                    everyFileName.contains(name),
                    "\(document) names \(name), and no file of the repository has that name")
            }
        }
    }

    @Test("README's Layout section names every top folder and every module's folder")
    func layoutIsComplete() async throws {
        let root = PackageReader.packageRoot
        let readme = try String(contentsOf: root.appending(path: "README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "## Layout"))
        let layout = readme[start.upperBound...]
        let top = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { name in
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(
                atPath: root.appending(path: name).path, isDirectory: &isFolder)
            return exists && isFolder.boolValue && (!name.hasPrefix(".") || name == ".ci")
        }
        for folder in top {
            #expect(layout.contains("\(folder)/"), "README's Layout omits \(folder)/")
        }
        for module in try await PackageReader.modules() where !module.isTest {
            let folder = try #require(module.path.split(separator: "/").last)
            #expect(layout.contains(folder), "README's Layout omits \(module.name) (\(folder))")
        }
    }

    @Test("ARCHITECTURE.md stays an overview: at most 250 lines")
    func architectureIsShort() throws {
        let text = try String(
            contentsOf: PackageReader.packageRoot.appending(path: "ARCHITECTURE.md"),
            encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= 250, "ARCHITECTURE.md has \(lines) lines; move depth to a DocC article")
    }

    @Test("the path scan finds paths and file names in code spans, and skips what is no path")
    func scanCanFail() {
        let text = """
            Read `Modules/ListStore/ListStore.swift` and `Gone.swift`; run `swift test`, write
            to `/tmp/attractions.json` or `$XDG_DATA_HOME/x.json`, see `Tests/*/AsWritten/` and
            `Adapters/`.
            """
        #expect(
            NamedPaths.candidates(in: text) == [
                "Modules/ListStore/ListStore.swift", "Gone.swift", "Adapters/",
            ])
    }
}

/// Finds the repository paths a Markdown document names in code spans.
enum NamedPaths {
    private static let folders = [
        "Modules/", "Adapters/", "Samples/", "Tests/", "Documentation/", "Scripts/", "Benchmarks/",
        ".ci/",
    ]
    private static let suffixes = [
        ".swift", ".md", ".py", ".sh", ".diff", ".json", ".tutorial", ".txt", ".script",
        ".expected",
    ]

    /// The code spans that are a path in the repository (starting with one of its top folders)
    /// or a file name with a source or document suffix, in order, each once.
    static func candidates(in markdown: String) -> [String] {
        var found: [String] = []
        for (index, piece) in markdown.components(separatedBy: "`").enumerated()
        where index % 2 == 1 {
            let span = piece.trimmingCharacters(in: .whitespaces)
            guard !span.contains(" "), !span.contains("*"), !span.isEmpty else { continue }
            let isPath = folders.contains { span.hasPrefix($0) }
            let isFileName =
                !span.contains("/") && !span.hasPrefix("$") && !span.hasPrefix("~")
                && suffixes.contains { span.hasSuffix($0) }
                && span.first.map { $0.isLetter || $0 == "." } == true
            if (isPath || isFileName) && !found.contains(span) { found.append(span) }
        }
        return found
    }

    /// The name of every file and folder in the repository, outside `.build` and `.git`.
    static func fileNames(under root: URL) -> Set<String> {
        var names: Set<String> = []
        guard
            let enumerator = FileManager.default.enumerator(
                at: root, includingPropertiesForKeys: nil)
        else { return names }
        for case let url as URL in enumerator {
            if url.lastPathComponent == ".build" || url.lastPathComponent == ".git" {
                enumerator.skipDescendants()
                continue
            }
            names.insert(url.lastPathComponent)
        }
        return names
    }
}

@Suite("README stays a learner's page")
struct ReadmeLengthTests {
    @Test("README.md is at most 200 lines, and leads with the three ideas before the samples")
    func short() throws {
        let text = try String(
            contentsOf: PackageReader.packageRoot.appending(path: "README.md"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        #expect(lines <= 200, "README.md has \(lines) lines")
        let ideas = try #require(text.range(of: "## The three ideas"))
        let samples = try #require(text.range(of: "## The three samples"))
        #expect(ideas.lowerBound < samples.lowerBound)
    }
}

extension StatedFactsTests {
    @Test(
        "README's production reading path of each post names as many files as it says, each there, and post 004's is at most 650 lines"
    )
    func readingPaths() throws {
        let readme = try String(
            contentsOf: PackageReader.packageRoot.appending(path: "README.md"), encoding: .utf8)
        let after = readme.components(separatedBy: "## The production reading path").last ?? ""
        let section = after.components(separatedBy: "\n## ").first ?? ""
        let posts = section.components(separatedBy: "\n- Post ").dropFirst()
        #expect(posts.count == 3, "the reading path names \(posts.count) posts")
        for post in posts {
            let said = try #require(post.firstMatch(of: #/^(\d+), (\d+) files:/#))
            let files = post.matches(of: #/`([\w/+.-]+\.swift)`/#).map { String($0.output.1) }
            #expect(files.count == Int(String(said.output.2)), "post \(said.output.1): \(files)")
            var lines = 0
            for file in files {
                let text = try String(
                    contentsOf: PackageReader.packageRoot.appending(path: file), encoding: .utf8)
                lines += text.filter { $0 == "\n" }.count
            }
            if said.output.1 == "004" {
                #expect(lines <= 650, "post 004's reading path is \(lines) lines (at most 650)")
            }
        }
    }
}
