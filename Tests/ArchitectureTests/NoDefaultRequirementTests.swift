import Foundation
import Testing

/// No protocol requirement of the ideas' protocols has a default implementation.
///
/// Post 004's bug was a method the editor asked for at run time and the delegate spelt another
/// way: nothing failed, cancel was simply never delivered. In Swift the same silence comes back
/// through a default implementation: a delegate that misspells `cancelEditing()` compiles, gets
/// the default, and is never called. So no requirement of a delegate protocol, and none of post
/// 001's operations or forwarding protocols, may be implemented by an extension of that protocol.
@Suite("Post 004's bug cannot come back: no protocol requirement has a default")
struct NoDefaultRequirementTests {
    @Test(
        "no delegate, operations or forwarding protocol has an extension that implements one of its requirements"
    )
    func noDefaults() throws {
        let sources = try Self.layerLineSources()
        let protocols = sources.flatMap { ProtocolScan.protocols(in: $0.text) }.filter {
            $0.name.hasSuffix("Delegate") || $0.name.hasSuffix("Operations")
                || $0.name.hasSuffix("Forwarding") || $0.name.hasSuffix("Maintenance")
        }
        let names = Set(protocols.map(\.name))
        // The protocols the posts are about are all there: a rename must not empty the check.
        #expect(
            names.isSuperset(of: [
                "ElementEditorDelegate", "DataManagerOperations", "DataManagerForwarding",
                "RemoteConnectionManagerOperations", "RemoteConnectionManagerForwarding",
            ]), "found only \(names.sorted())")

        for source in sources {
            for found in ProtocolScan.defaults(for: protocols, in: source.text) {
                Issue.record(
                    "\(source.path) gives \(found.protocolName).\(found.requirement) a default implementation; a conformer that misspells it would compile and never be called"
                )
            }
        }
    }

    @Test("the scan finds a default that an extension gives, and nothing in a conformer")
    func scanCanFail() {
        let code = """
            @MainActor
            public protocol EditorDelegate: AnyObject {
                func save(_ value: Int) throws
                var title: String { get }
                func cancelEditing()
            }

            extension EditorDelegate where Self: AnyObject {
                public func cancelEditing() {}
                func helper() {}
            }

            final class Delegate: EditorDelegate {
                func save(_ value: Int) {}
                var title: String { "" }
                func cancelEditing() {}
            }
            """
        let protocols = ProtocolScan.protocols(in: code)

        #expect(protocols.map(\.name) == ["EditorDelegate"])
        #expect(protocols.first?.requirements == ["save", "title", "cancelEditing"])
        #expect(
            ProtocolScan.defaults(for: protocols, in: code).map(\.requirement) == ["cancelEditing"])
    }

    /// The Swift files of the layer line and of the samples, each with its path.
    private static func layerLineSources() throws -> [(path: String, text: String)] {
        let root = PackageReader.packageRoot
        var found: [(String, String)] = []
        for folder in ["Modules", "Adapters", "Samples"] {
            guard
                let enumerator = FileManager.default.enumerator(
                    at: root.appending(path: folder), includingPropertiesForKeys: nil)
            else { continue }
            for case let url as URL in enumerator
            where url.pathExtension == "swift" {
                found.append(
                    (
                        String(url.path.dropFirst(root.path.count + 1)),
                        try String(contentsOf: url, encoding: .utf8)
                    ))
            }
        }
        return found
    }
}

/// Finds protocols, their requirements, and extensions that implement them, in Swift source.
///
/// A scan, not a parser: enough for this package's declarations, and tested above.
enum ProtocolScan {
    struct DeclaredProtocol: Equatable {
        var name: String
        var requirements: [String]
    }

    struct Default: Equatable {
        var protocolName: String
        var requirement: String
    }

    /// Each `protocol Name … { … }` in `code`, with the names its body declares.
    static func protocols(in code: String) -> [DeclaredProtocol] {
        blocks(in: code, after: "protocol").map {
            DeclaredProtocol(name: $0.name, requirements: declaredNames(in: $0.body))
        }
    }

    /// Each requirement of `protocols` that an `extension` of its protocol declares in `code`.
    static func defaults(for protocols: [DeclaredProtocol], in code: String) -> [Default] {
        let byName = Dictionary(protocols.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var found: [Default] = []
        for block in blocks(in: code, after: "extension") {
            guard let declared = byName[block.name] else { continue }
            for name in declaredNames(in: block.body) where declared.requirements.contains(name) {
                found.append(Default(protocolName: block.name, requirement: name))
            }
        }
        return found
    }

    /// The blocks that follow `keyword` at the start of a declaration, with the name after it.
    private static func blocks(in code: String, after keyword: String) -> [(
        name: String, body: Substring
    )] {
        let pattern =
            "(?m)^[ \\t]*(?:@\\w+[ \\t]+)*(?:(?:public|package|internal|private|fileprivate)[ \\t]+)?\(keyword)[ \\t]+([A-Za-z_][A-Za-z0-9_]*)[^{]*\\{"
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        let text = code as NSString
        return regex.matches(in: code, range: NSRange(location: 0, length: text.length)).compactMap
        {
            match in
            let name = text.substring(with: match.range(at: 1))
            guard let open = Range(match.range, in: code)?.upperBound else { return nil }
            var depth = 1
            var index = open
            while index < code.endIndex, depth > 0 {
                if code[index] == "{" { depth += 1 }
                if code[index] == "}" { depth -= 1 }
                index = code.index(after: index)
            }
            return (name, code[open..<code.index(before: index)])
        }
    }

    /// The names of the functions, properties and subscripts declared at the top level of `body`.
    private static func declaredNames(in body: Substring) -> [String] {
        var names: [String] = []
        var depth = 0
        for line in body.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if depth == 0, !trimmed.hasPrefix("//") {
                let words = trimmed.split(whereSeparator: { $0 == " " || $0 == "(" || $0 == ":" })
                if let keyword = words.firstIndex(where: { $0 == "func" || $0 == "var" }),
                    keyword + 1 < words.count
                {
                    let name = words[keyword + 1].prefix {
                        $0.isLetter || $0.isNumber || $0 == "_"
                    }
                    if !name.isEmpty { names.append(String(name)) }
                }
            }
            depth += line.filter { $0 == "{" }.count - line.filter { $0 == "}" }.count
        }
        return names
    }
}
