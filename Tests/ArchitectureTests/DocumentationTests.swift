import Foundation
import Testing

@Suite("The documentation stays true")
struct DocumentationTests {
    private static let root = PackageReader.packageRoot
    private static let modules = [
        "MVCTracing", "MVCObservation", "MVCModel", "MVCPersistence", "MVCStore",
        "MVCAvatarServiceLive",
        "MVCDelegates",
        "MVCPresenter", "MVCPresenterTesting", "MVCObservationBridge",
    ]

    @Test("every module's catalog example is the code a test compiles and runs", arguments: modules)
    func catalogExampleIsTested(module: String) throws {
        let article = try Self.text(Self.find("\(module).docc/\(module).md", under: "Modules"))
        let example = try #require(
            Self.swiftBlocks(in: article).first, "\(module).md has no swift example")
        let tests = try Self.files(named: "DocumentationExampleTests.swift", under: "Tests").map(
            Self.text
        ).joined()
        let tested = try #require(
            Self.region(in: tests, named: "\(module) example"),
            "no test holds the region '// BEGIN \(module) example'"
        )

        #expect(Self.normalized(example) == Self.normalized(tested))
    }

    @Test(
        "every swift example in the catalogs, the guide, README, ARCHITECTURE and doc comments is compiled by a test or names only symbols that exist"
    )
    func examplesCannotDrift() throws {
        let regions = try Self.testRegions()
        let declared = try Self.declaredNames()
        var checked = 0
        var unchecked: [String] = []
        for (file, example) in try Self.documentedExamples() {
            checked += 1
            let lines = Self.normalized(example)
            if regions.contains(where: { Self.contains($0, lines) }) { continue }
            let unknown = Self.undeclaredNames(in: example, declared: declared)
            if !unknown.isEmpty {
                unchecked.append("\(file): \(unknown.sorted().joined(separator: ", "))")
            }
        }
        #expect(checked > 20, "only \(checked) examples found")
        #expect(
            unchecked.isEmpty,
            "examples that no test compiles name symbols that exist nowhere:\n\(unchecked.joined(separator: "\n"))"
        )
    }

    /// Names the platforms provide that uncompiled examples (SwiftUI, UIKit) may use.
    private static let platformNames: Set<String> = [
        "String", "Int", "Double", "Bool", "Void", "Error", "Codable", "Sendable", "Task",
        "MainActor", "Observable", "Observations", "Mutex", "URL", "View", "VStack", "HStack",
        "Text", "Toggle", "Button", "State", "UIViewController", "UILabel", "map", "constant",
        "addSubview", "viewDidLoad", "text", "view", "count", "first", "last", "append",
    ]

    /// Every swift block of every catalog and guide article, README and ARCHITECTURE, and every
    /// doc comment in the modules, with the file it is in.
    private static func documentedExamples() throws -> [(String, String)] {
        var examples: [(String, String)] = []
        let markdown =
            files(withSuffix: ".md", under: "Modules")
            + files(withSuffix: ".md", under: "Documentation")
            + [root.appending(path: "README.md"), root.appending(path: "ARCHITECTURE.md")]
        for url in markdown {
            examples += swiftBlocks(in: try text(url)).map { (url.lastPathComponent, $0) }
        }
        for url in files(withSuffix: ".swift", under: "Modules") {
            let comments = try text(url).split(separator: "\n").filter {
                $0.trimmingCharacters(in: .whitespaces).hasPrefix("///")
            }.map { line in
                line.trimmingCharacters(in: .whitespaces).dropFirst(3).drop { $0 == " " }
            }.joined(separator: "\n")
            examples += swiftBlocks(in: comments).map { (url.lastPathComponent, $0) }
        }
        return examples
    }

    /// The code between `// BEGIN …` and `// END …` in every test file, normalized.
    private static func testRegions() throws -> [[String]] {
        var regions: [[String]] = []
        for url in files(withSuffix: ".swift", under: "Tests") {
            var rest = try text(url)[...]
            while let begin = rest.range(of: "// BEGIN "),
                let lineEnd = rest[begin.upperBound...].firstIndex(of: "\n")
            {
                let name = rest[begin.upperBound..<lineEnd]
                guard let end = rest[lineEnd...].range(of: "// END \(name)") else { break }
                regions.append(normalized(String(rest[lineEnd..<end.lowerBound])))
                rest = rest[end.upperBound...]
            }
        }
        return regions
    }

    /// Whether `lines` appear in `region`, in order and next to each other.
    private static func contains(_ region: [String], _ lines: [String]) -> Bool {
        guard !lines.isEmpty, lines.count <= region.count else { return lines.isEmpty }
        return (0...(region.count - lines.count)).contains {
            Array(region[$0..<($0 + lines.count)]) == lines
        }
    }

    /// Every name the project's modules and samples declare.
    private static func declaredNames() throws -> Set<String> {
        var names: Set<String> = []
        for url in files(withSuffix: ".swift", under: "Modules")
            + files(withSuffix: ".swift", under: "Samples")
        {
            names.formUnion(declarations(in: try text(url)))
        }
        return names
    }

    /// The names `code` declares: types, functions, properties, enum cases, generic parameters.
    private static func declarations(in code: String) -> Set<String> {
        let words = identifiersAndSymbols(in: code)
        var names: Set<String> = []
        let introducers: Set<String> = [
            "class", "struct", "enum", "protocol", "actor", "typealias", "func", "var", "let",
            "associatedtype", "case",
        ]
        for (index, word) in words.enumerated().dropLast() where introducers.contains(word) {
            names.insert(words[index + 1])
            if word == "case" {
                // `case a, b`: every name after a comma up to the end of the list.
                var next = index + 2
                while next + 1 < words.count, words[next] == "," {
                    names.insert(words[next + 1])
                    next += 2
                }
            }
        }
        for (index, word) in words.enumerated().dropLast() where word == "<" || word == "," {
            if index + 2 < words.count, words[index + 2] == ":" { names.insert(words[index + 1]) }
        }
        return names
    }

    /// The type names and member names `example` uses that nothing declares.
    private static func undeclaredNames(in example: String, declared: Set<String>) -> Set<String> {
        let code = example.split(separator: "\n").filter {
            !$0.trimmingCharacters(in: .whitespaces).hasPrefix("import ")
        }.joined(separator: "\n")
        let words = identifiersAndSymbols(in: code)
        let known = declared.union(declarations(in: code)).union(platformNames)
        var unknown: Set<String> = []
        for (index, word) in words.enumerated() {
            guard let first = word.first, first.isLetter || first == "_" else { continue }
            let isMember = index > 0 && words[index - 1] == "."
            let isType = first.isUppercase && !isMember
            if (isMember || isType) && !known.contains(word) { unknown.insert(word) }
        }
        return unknown
    }

    /// Identifiers and single punctuation marks, with comments and string literals left out.
    private static func identifiersAndSymbols(in code: String) -> [String] {
        var tokens: [String] = []
        var current = ""
        var inString = false
        var previous: Character = " "
        for line in code.split(separator: "\n", omittingEmptySubsequences: false) {
            let uncommented = line.range(of: "//").map { line[..<$0.lowerBound] } ?? line
            for character in uncommented {
                if inString {
                    if character == "\"" && previous != "\\" { inString = false }
                } else if character == "\"" {
                    inString = true
                } else if character.isLetter || character.isNumber || character == "_" {
                    current.append(character)
                } else {
                    if !current.isEmpty { tokens.append(current) }
                    current = ""
                    if !character.isWhitespace { tokens.append(String(character)) }
                }
                previous = character
            }
            if !current.isEmpty { tokens.append(current) }
            current = ""
        }
        return tokens
    }

    private static func files(withSuffix suffix: String, under folder: String) -> [URL] {
        let enumerator = FileManager.default.enumerator(
            at: root.appending(path: folder), includingPropertiesForKeys: nil)
        return (enumerator?.compactMap { $0 as? URL } ?? []).filter {
            $0.lastPathComponent.hasSuffix(suffix)
        }
    }

    @Test("the layer diagram in ARCHITECTURE.md matches the manifest's dependencies between layers")
    func diagramMatchesManifest() throws {
        let architecture = try Self.text(Self.root.appending(path: "ARCHITECTURE.md"))
        let diagram = try #require(
            Self.mermaidBlocks(in: architecture).first { $0.contains("graph BT") })
        let drawn = Self.edges(inMermaid: diagram).filter {
            Self.modules.contains($0.from) && Self.modules.contains($0.to)
        }

        let declared = try PackageReader.modules().filter { Self.modules.contains($0.name) }.flatMap
        { module in
            module.declaredDependencies.map { Edge(from: module.name, to: $0) }
        }

        #expect(
            Set(drawn) == Set(declared),
            "drawn but not declared: \(Set(drawn).subtracting(declared)); declared but not drawn: \(Set(declared).subtracting(drawn))"
        )
    }

    struct Edge: Hashable {
        var from: String
        var to: String
    }

    /// The edges of a `graph` diagram, with node ids replaced by their labels (`Model[MVCModel]`).
    static func edges(inMermaid diagram: String) -> [Edge] {
        var labels: [String: String] = [:]
        var edges: [(String, String)] = []
        for line in diagram.split(separator: "\n") {
            let parts = line.components(separatedBy: "-->")
            guard parts.count == 2 else { continue }
            let ends = parts.map { part -> String in
                let node = part.trimmingCharacters(in: .whitespaces)
                guard let open = node.firstIndex(of: "[") else { return node }
                let id = String(node[..<open])
                labels[id] = node[node.index(after: open)...].trimmingCharacters(
                    in: CharacterSet(charactersIn: "]\""))
                return id
            }
            edges.append((ends[0], ends[1]))
        }
        return edges.map { Edge(from: labels[$0.0] ?? $0.0, to: labels[$0.1] ?? $0.1) }
    }

    private static func swiftBlocks(in markdown: String) -> [String] {
        blocks(in: markdown, fence: "```swift")
    }
    private static func mermaidBlocks(in markdown: String) -> [String] {
        blocks(in: markdown, fence: "```mermaid")
    }

    private static func blocks(in markdown: String, fence: String) -> [String] {
        var found: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line.trimmingCharacters(in: .whitespaces) == fence {
                current = []
            } else if current != nil, line.trimmingCharacters(in: .whitespaces) == "```" {
                found.append((current ?? []).joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return found
    }

    private static func region(in source: String, named name: String) -> String? {
        guard let start = source.range(of: "// BEGIN \(name)\n"),
            let end = source.range(of: "// END \(name)", range: start.upperBound..<source.endIndex)
        else { return nil }
        return String(source[start.upperBound..<end.lowerBound])
    }

    /// Lines without indentation, blank lines dropped: how an article and a test may differ.
    private static func normalized(_ code: String) -> [String] {
        code.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty
        }
    }

    private static func text(_ url: URL) throws -> String {
        try String(contentsOf: url, encoding: .utf8)
    }

    private static func find(_ relativePath: String, under folder: String) throws -> URL {
        let matches = files(
            named: URL(fileURLWithPath: relativePath).lastPathComponent, under: folder)
        guard let match = matches.first(where: { $0.path.hasSuffix(relativePath) }) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: relativePath])
        }
        return match
    }

    private static func files(named name: String, under folder: String) -> [URL] {
        let enumerator = FileManager.default.enumerator(
            at: root.appending(path: folder), includingPropertiesForKeys: nil)
        return (enumerator?.compactMap { $0 as? URL } ?? []).filter { $0.lastPathComponent == name }
    }
}
