import Foundation

/// One module of the package as the checks see it: what it declares and what its sources import.
struct ModuleFacts: Equatable {
    var name: String
    var isTest: Bool
    /// The project modules named in the manifest as its dependencies.
    var declaredDependencies: Set<String>
    /// Each `import` of a module, with the file that has it.
    var imports: [Import]
    /// Files that declare a `static let shared` or `static var shared`.
    var singletonFiles: [String] = []
    /// Its folder, from the package root.
    var path: String = ""

    struct Import: Equatable {
        var module: String
        var file: String
    }
}

/// Reads the package: the manifest through `swift package dump-package`, the sources as text.
enum PackageReader {
    enum Failure: Error, CustomStringConvertible {
        case dumpPackageFailed(status: Int32, errors: String)
        case unexpectedManifestJSON(String)

        var description: String {
            switch self {
            case .dumpPackageFailed(let status, let errors):
                "swift package dump-package exited with \(status): \(errors)"
            case .unexpectedManifestJSON(let detail):
                "dump-package printed JSON of an unexpected shape: \(detail)"
            }
        }
    }

    /// The package root: three folders up from this file.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The package's modules, with their declared dependencies and imports.
    static func modules() async throws -> [ModuleFacts] {
        let manifest = try await dumpPackage()
        guard let targets = manifest["targets"] as? [[String: Any]] else {
            throw Failure.unexpectedManifestJSON("no targets array")
        }
        return try targets.map { target in
            guard let name = target["name"] as? String, let type = target["type"] as? String else {
                throw Failure.unexpectedManifestJSON("a target without name or type")
            }
            let isTest = type == "test"
            let path = (target["path"] as? String) ?? (isTest ? "Tests/\(name)" : "Sources/\(name)")
            let sources = swiftFiles(under: packageRoot.appending(path: path))
            return ModuleFacts(
                name: name,
                isTest: isTest,
                declaredDependencies: Set(dependencyNames(of: target)),
                imports: try sources.flatMap { file in
                    try importedModules(in: String(contentsOf: file, encoding: .utf8)).map {
                        ModuleFacts.Import(module: $0, file: relativePath(of: file))
                    }
                },
                singletonFiles: try sources.filter { file in
                    try declaresSingleton(String(contentsOf: file, encoding: .utf8))
                }.map(relativePath(of:)),
                path: path
            )
        }
    }

    /// The library products of the package, each with the modules it contains.
    static func libraryProducts() async throws -> [String: [String]] {
        guard let products = try await dumpPackage()["products"] as? [[String: Any]] else {
            throw Failure.unexpectedManifestJSON("no products array")
        }
        var libraries: [String: [String]] = [:]
        for product in products {
            guard let name = product["name"] as? String,
                let type = product["type"] as? [String: Any],
                type["library"] != nil
            else { continue }
            libraries[name] = product["targets"] as? [String] ?? []
        }
        return libraries
    }

    /// The names of the package's executable products.
    static func executableProducts() async throws -> [String] {
        guard let products = try await dumpPackage()["products"] as? [[String: Any]] else {
            throw Failure.unexpectedManifestJSON("no products array")
        }
        return products.compactMap { product in
            guard let type = product["type"] as? [String: Any], type["executable"] != nil else {
                return nil
            }
            return product["name"] as? String
        }
    }

    /// The module names an `import` line names, in any of Swift's import forms, skipping the text
    /// of multi-line string literals.
    static func importedModules(in source: String) -> [String] {
        let modifiers: Set<String> = [
            "public", "package", "internal", "private", "fileprivate", "@testable", "@_exported",
            "@preconcurrency", "@_implementationOnly",
        ]
        let kinds: Set<String> = [
            "struct", "class", "enum", "protocol", "typealias", "func", "let", "var",
        ]
        var isInsideMultilineString = false
        return source.split(whereSeparator: \.isNewline).compactMap { line in
            // An import-looking line inside a multi-line string literal is text, not an import.
            if line.components(separatedBy: "\"\"\"").count % 2 == 0 {
                isInsideMultilineString.toggle()
            }
            guard !isInsideMultilineString else { return nil }
            var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)[
                ...]
            while let first = words.first, modifiers.contains(first) { words.removeFirst() }
            guard words.popFirst() == "import", var path = words.popFirst() else { return nil }
            if kinds.contains(path), let next = words.popFirst() { path = next }
            return path.split(separator: ".").first.map(String.init)
        }
    }

    /// Whether `source` declares a shared singleton instance.
    static func declaresSingleton(_ source: String) -> Bool {
        source.contains("static let shared") || source.contains("static var shared")
    }

    private static func dependencyNames(of target: [String: Any]) -> [String] {
        let dependencies = (target["dependencies"] as? [[String: Any]]) ?? []
        return dependencies.compactMap { dependency in
            for kind in ["byName", "target"] {
                if let parts = dependency[kind] as? [Any], let name = parts.first as? String {
                    return name
                }
            }
            return nil
        }
    }

    /// The manifest, as `swift package dump-package` prints it.
    private static func dumpPackage() async throws -> [String: Any] {
        guard
            let object = try JSONSerialization.jsonObject(with: Data(try await manifest.value))
                as? [String: Any]
        else { throw Failure.unexpectedManifestJSON("not an object") }
        return object
    }

    /// `swift package dump-package`'s output, read once for every test that asks, on a thread of
    /// its own: it takes seconds, and would hold one of the cooperative pool's threads as long.
    ///
    /// Kept as bytes, not `Data`: held until the process ends, a `Data`'s storage is reached only
    /// through an enum's tagged pointer, which LeakSanitizer does not follow, and it reported the
    /// buffer leaked.
    private static let manifest = Task {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try runDumpPackage() }) }
        }
    }

    private static func runDumpPackage() throws -> [UInt8] {
        // A scratch folder of its own, so that this does not wait for the lock of the build
        // that is running these tests.
        let scratch = FileManager.default.temporaryDirectory.appending(
            path: "mvclayers-dump-package")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "swift", "package", "--package-path", packageRoot.path, "--scratch-path", scratch.path,
            "dump-package",
        ]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure.dumpPackageFailed(
                status: process.terminationStatus,
                errors: String(decoding: errorData, as: UTF8.self)
            )
        }
        return Array(data)
    }

    private static func swiftFiles(under folder: URL) -> [URL] {
        guard
            let enumerator = FileManager.default.enumerator(
                at: folder, includingPropertiesForKeys: nil)
        else {
            return []
        }
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
            .sorted { $0.path < $1.path }
    }

    private static func relativePath(of file: URL) -> String {
        let root = packageRoot.standardizedFileURL.path
        let path = file.standardizedFileURL.path
        return path.hasPrefix(root) ? String(path.dropFirst(root.count + 1)) : path
    }
}
