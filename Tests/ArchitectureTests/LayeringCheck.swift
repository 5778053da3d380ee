/// A break of the layering rules, described so that the fix is obvious.
struct Violation: Equatable, CustomStringConvertible {
    var description: String
}

/// Compares modules with the rules: a pure function, so the checks themselves can be tested.
enum LayeringCheck {
    /// Every way `modules` break `rules`.
    ///
    /// - Parameters:
    ///   - modules: The package's modules (test modules included).
    ///   - rules: What each non-test module may depend on.
    static func violations(in modules: [ModuleFacts], rules: [String: LayerRule]) -> [Violation] {
        let projectModules = Set(modules.map(\.name))
        var found: [Violation] = []
        for module in modules {
            let importedProjectModules = module.imports.filter {
                projectModules.contains($0.module)
            }
            for imported in importedProjectModules
            where !module.declaredDependencies.contains(imported.module) {
                found.append(
                    Violation(
                        description:
                            "\(imported.file) imports \(imported.module), which \(module.name) does not declare as a dependency"
                    )
                )
            }
            for dependency in module.declaredDependencies.sorted()
            where [.composition, .essentials].contains(rules[dependency])
                && rules[module.name] != .composition
            {
                guard !module.isTest else { continue }
                found.append(
                    Violation(
                        description:
                            "\(module.name) depends on \(dependency), a sample or tool; nothing but tests may"
                    )
                )
            }
            guard !module.isTest else { continue }
            switch rules[module.name] {
            case nil:
                found.append(
                    Violation(
                        description:
                            "\(module.name) is not in the layer table; add it to LayerRules and ARCHITECTURE.md's diagram"
                    )
                )
            case .systemLibrary, .essentials:
                for dependency in module.declaredDependencies.sorted() {
                    found.append(
                        Violation(
                            description:
                                "\(module.name) is a system library or an essentials program, and depends on \(dependency); it may depend on nothing of the project's"
                        ))
                }
            case .composition:
                continue
            case .layer(let allowed), .adapter(let allowed):
                if case .layer = rules[module.name] {
                    for adapter in machineRoom(reachedFrom: module, in: modules, rules: rules) {
                        found.append(
                            Violation(
                                description:
                                    "\(module.name) is on the layer line and depends on \(adapter), a module of the machine room; an adapter may depend on the layer line, never the other way"
                            ))
                    }
                }
                for dependency in module.declaredDependencies.sorted()
                where !allowed.contains(dependency) {
                    found.append(
                        Violation(
                            description:
                                "\(module.name) depends on \(dependency); it may depend only on \(describe(allowed))"
                        )
                    )
                }
                for imported in importedProjectModules where !allowed.contains(imported.module) {
                    found.append(
                        Violation(
                            description:
                                "\(imported.file) imports \(imported.module); \(module.name) may import only \(describe(allowed))"
                        )
                    )
                }
                let imported = Set(module.imports.map(\.module))
                for dependency in module.declaredDependencies.sorted()
                where !imported.contains(dependency) {
                    found.append(
                        Violation(
                            description:
                                "\(module.name) depends on \(dependency), which none of its files imports; drop it (an importer of \(module.name) links it)"
                        ))
                }
                for file in module.singletonFiles {
                    found.append(
                        Violation(
                            description: "\(file) declares a shared singleton; inject it instead"))
                }
            }
        }
        return found
    }

    /// The adapters and system libraries `module` depends on, directly or through other modules.
    private static func machineRoom(
        reachedFrom module: ModuleFacts, in modules: [ModuleFacts], rules: [String: LayerRule]
    ) -> [String] {
        let byName = Dictionary(
            modules.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var seen: Set<String> = []
        var pending = Array(module.declaredDependencies)
        while let next = pending.popLast() {
            guard seen.insert(next).inserted else { continue }
            pending += byName[next]?.declaredDependencies ?? []
        }
        return seen.filter { name in
            switch rules[name] {
            case .adapter, .systemLibrary: true
            default: false
            }
        }.sorted()
    }

    private static func describe(_ modules: Set<String>) -> String {
        modules.isEmpty ? "no project module" : modules.sorted().joined(separator: ", ")
    }
}
