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
        let samples = try await PackageReader.executableProducts().filter { $0 != "benchmarks" }
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
