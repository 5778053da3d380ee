import Testing

@Suite("The layering rules")
struct ArchitectureTests {
    @Test("every module depends on and imports only what its layer allows")
    func packageFollowsTheRules() async throws {
        let modules = try await PackageReader.modules()

        let violations = LayeringCheck.violations(in: modules, rules: LayerRules.table)

        #expect(violations == [], "\(violations.map(\.description).joined(separator: "\n"))")
        #expect(modules.contains { $0.name == "MVCObservation" }, "the manifest was not read")
    }

    @Test("every library layer is a product of its own, so a user can depend on it alone")
    func eachLayerIsAProduct() async throws {
        let products = try await PackageReader.libraryProducts()
        let modules = Set(try await PackageReader.modules().map(\.name))

        for case (let module, .layer) in LayerRules.table where modules.contains(module) {
            #expect(products[module] == [module], "\(module) is not a library product of its own")
        }
    }

    @Test("the import scanner sees every form of import")
    func importScanner() {
        // Built line by line, so that these lines are not themselves imports of this file.
        let source = [
            "import Foundation",
            "public import MVCModel",
            "@testable import MVCStore",
            "@preconcurrency internal import MVCObservation",
            "import struct MVCPresenter.SwitchesViewState",
            "// import MVCDelegates is only a comment",
            "let important = 1",
            "let text = \"\"\"",
            "    import MVCDelegates inside a string literal",
            "    \"\"\"",
        ].joined(separator: "\n")

        #expect(
            PackageReader.importedModules(in: source)
                == ["Foundation", "MVCModel", "MVCStore", "MVCObservation", "MVCPresenter"]
        )
    }
}

@Suite("The layering check can fail")
struct LayeringCheckTests {
    private func module(
        _ name: String,
        declares: Set<String> = [],
        imports: [String]? = nil,
        isTest: Bool = false
    ) -> ModuleFacts {
        ModuleFacts(
            name: name,
            isTest: isTest,
            declaredDependencies: declares,
            imports: (imports ?? declares.sorted()).map {
                ModuleFacts.Import(module: $0, file: "Modules/\(name)/File.swift")
            }
        )
    }

    private let sound: [ModuleFacts] = [
        ModuleFacts(name: "MVCObservation", isTest: false, declaredDependencies: [], imports: []),
        ModuleFacts(
            name: "MVCModel",
            isTest: false,
            declaredDependencies: ["MVCObservation"],
            imports: [.init(module: "MVCObservation", file: "Modules/Model/A.swift")]
        ),
        ModuleFacts(
            name: "MVCPresenter", isTest: false, declaredDependencies: ["MVCModel"],
            imports: [.init(module: "MVCModel", file: "Modules/Presenter/A.swift")]),
    ]

    @Test("a sound graph has no violations")
    func soundGraph() {
        #expect(LayeringCheck.violations(in: sound, rules: LayerRules.table) == [])
    }

    @Test("a model that depends on and imports the presenter layer above it is caught twice")
    func upwardDependency() {
        let modules = [
            sound[0], module("MVCModel", declares: ["MVCPresenter"], imports: ["MVCPresenter"]),
            sound[2],
        ]

        let violations = LayeringCheck.violations(in: modules, rules: LayerRules.table)

        #expect(
            violations.map(\.description) == [
                "MVCModel depends on MVCPresenter; it may depend only on MVCElements, MVCObservation, MVCTracing",
                "Modules/MVCModel/File.swift imports MVCPresenter; MVCModel may import only MVCElements, MVCObservation, MVCTracing",
            ]
        )
    }

    @Test("an import of a dependency's dependency that is not declared is caught")
    func undeclaredTransitiveImport() {
        let modules = [
            sound[0], sound[1],
            module(
                "MVCPresenter", declares: ["MVCModel"], imports: ["MVCModel", "MVCObservation"]),
        ]

        let violations = LayeringCheck.violations(in: modules, rules: LayerRules.table)

        #expect(
            violations.map(\.description) == [
                "Modules/MVCPresenter/File.swift imports MVCObservation, which MVCPresenter does not declare as a dependency"
            ]
        )
    }

    @Test(
        "a library that depends on a sample, a module missing from the table, and a singleton are caught"
    )
    func otherViolations() {
        var presenter = module("MVCPresenter", declares: ["switches"])
        presenter.singletonFiles = ["Modules/Presenter/Shared.swift"]
        let modules = [sound[0], sound[1], presenter, module("switches"), module("MVCExtras")]

        let violations = LayeringCheck.violations(in: modules, rules: LayerRules.table).map(
            \.description)

        #expect(
            violations.contains(
                "MVCPresenter depends on switches, a sample or tool; nothing but tests may"))
        #expect(
            violations.contains(
                "MVCExtras is not in the layer table; add it to LayerRules and ARCHITECTURE.md's diagram"
            ))
        #expect(
            violations.contains(
                "Modules/Presenter/Shared.swift declares a shared singleton; inject it instead"))
    }

    @Test("a layer-line module that reaches an adapter through another layer is caught")
    func adapterReachedTransitively() {
        let modules = [
            sound[0], sound[1],
            module("MVCStore", declares: ["MVCModel", "MVCDocumentStore"]),
            module("MVCPresenter", declares: ["MVCStore"]),
            module("MVCDocumentStore", declares: ["MVCObservation"]),
        ]

        let violations = LayeringCheck.violations(in: modules, rules: LayerRules.table).map(
            \.description)

        #expect(
            violations.contains(
                "MVCPresenter is on the layer line and depends on MVCDocumentStore, a module of the machine room; an adapter may depend on the layer line, never the other way"
            ))
        #expect(
            violations.contains(
                "MVCStore depends on MVCDocumentStore; it may depend only on MVCElements, MVCListStore, MVCModel, MVCObservation, MVCTracing"
            ))
    }

    @Test("an adapter may depend on the layer line, and a sample on both")
    func adaptersDependInward() {
        let modules = [
            sound[0], sound[1],
            module("MVCListStore", declares: ["MVCObservation"]),
            module("MVCStore", declares: ["MVCModel", "MVCListStore"]),
            module("MVCDocumentStore", declares: ["MVCListStore"]),
            module("attractions", declares: ["MVCDocumentStore", "MVCStore"]),
        ]

        #expect(LayeringCheck.violations(in: modules, rules: LayerRules.table) == [])
    }

    @Test("a library that declares a dependency none of its files imports is caught")
    func unusedDependency() {
        let modules = [
            sound[0], sound[1], module("MVCListStore", declares: ["MVCObservation"], imports: []),
        ]

        #expect(
            LayeringCheck.violations(in: modules, rules: LayerRules.table).map(\.description) == [
                "MVCListStore depends on MVCObservation, which none of its files imports; drop it (an importer of MVCListStore links it)"
            ])
    }

    @Test("a list's adapter that links a sample's domain is caught")
    func listAdapterStaysGeneric() {
        let modules = [
            sound[0], sound[1],
            module("MVCDocumentStore", declares: ["MVCModel"], imports: ["MVCModel"]),
        ]

        #expect(
            LayeringCheck.violations(in: modules, rules: LayerRules.table).map(\.description) == [
                "MVCDocumentStore depends on MVCModel; it may depend only on MVCElements, MVCListStore, MVCObservation, MVCTracing",
                "Modules/MVCDocumentStore/File.swift imports MVCModel; MVCDocumentStore may import only MVCElements, MVCListStore, MVCObservation, MVCTracing",
            ])
    }

    @Test("samples may depend on their support code, and tests on samples")
    func testsMayUseSamples() {
        let modules = [
            module("SampleSupport"),
            module("switches", declares: ["SampleSupport"], imports: ["SampleSupport"]),
            module("SampleTests", declares: ["switches"], isTest: true),
        ]

        #expect(LayeringCheck.violations(in: modules, rules: LayerRules.table) == [])
    }
}
