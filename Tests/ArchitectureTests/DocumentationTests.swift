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
