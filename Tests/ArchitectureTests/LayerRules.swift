/// The import rules, as data: which project modules each module may depend on and import (drawn
/// as ARCHITECTURE.md's layer diagram).
enum LayerRule: Equatable {
    /// A library layer: it may depend on these project modules and no others.
    case layer(mayImport: Set<String>)
    /// A module of the machine room: it may depend on these project modules, and no module of
    /// the layer line may depend on it, directly or through another.
    case adapter(mayImport: Set<String>)
    /// A C library the system provides, reached through a module map (SQLite): it imports no
    /// project module, and is not a product (the module that wraps it is).
    case systemLibrary
    /// The View (samples and their support code) and tooling (benchmarks): anything goes, since
    /// they are composition roots. Nothing may depend on them except tests.
    case composition
    /// A post's essentials program: the idea alone, so it depends on no module of the project and
    /// nothing depends on it except tests.
    case essentials
}

enum LayerRules {
    /// The rules of this package, one per non-test module.
    static let table: [String: LayerRule] = [
        "MVCTracing": .layer(mayImport: []),
        "MVCObservation": .layer(mayImport: []),
        // The generic list core: what an importer takes for a list of its own type. It names no
        // sample's domain, so neither may depend on MVCModel or MVCStore.
        "MVCElements": .layer(mayImport: []),
        "MVCListStore": .layer(mayImport: ["MVCElements", "MVCObservation", "MVCTracing"]),
        // The samples' domains and stores.
        "MVCModel": .layer(mayImport: ["MVCElements", "MVCObservation", "MVCTracing"]),
        "MVCStore": .layer(mayImport: [
            "MVCListStore", "MVCElements", "MVCModel", "MVCObservation", "MVCTracing",
        ]),
        // The machine room: adapters, each a leaf that depends inward. A list's adapters depend
        // on the generic list core only: no sample's domain is linked into one.
        "MVCDocumentStore": .adapter(mayImport: [
            "MVCListStore", "MVCElements", "MVCObservation", "MVCTracing",
        ]),
        // SQLite's C interface, a system library: it imports nothing of the project's.
        "CSQLite": .systemLibrary,
        "MVCSQLiteStore": .adapter(mayImport: [
            "CSQLite", "MVCListStore", "MVCElements", "MVCObservation", "MVCTracing",
        ]),
        // libpq, PostgreSQL's C client, a system library: it imports nothing of the project's.
        "CPostgres": .systemLibrary,
        "MVCPostgresStore": .adapter(mayImport: [
            "CPostgres", "MVCListStore", "MVCElements", "MVCObservation", "MVCTracing",
        ]),
        "MVCAvatarServiceLive": .adapter(mayImport: ["MVCStore", "MVCModel"]),
        "MVCDelegates": .layer(mayImport: [
            "MVCElements", "MVCModel", "MVCListStore", "MVCStore", "MVCTracing",
        ]),
        "MVCPresenter": .layer(mayImport: [
            "MVCElements", "MVCModel", "MVCObservation", "MVCListStore", "MVCStore",
            "MVCDelegates", "MVCTracing",
        ]),
        "MVCPresenterTesting": .layer(mayImport: ["MVCPresenter", "MVCObservation"]),
        "MVCObservationBridge": .layer(mayImport: ["MVCPresenter", "MVCObservation"]),
        "SampleSupport": .composition,
        // The attractions sample's storage: its file format and its rows, for every adapter.
        "AttractionsStorage": .adapter(mayImport: [
            "MVCModel", "MVCElements", "MVCListStore", "MVCDocumentStore",
        ]),
        "switches-essentials": .essentials,
        "avatars-essentials": .essentials,
        "attractions-essentials": .essentials,
        "switches": .composition,
        "avatars": .composition,
        "attractions": .composition,
        "benchmarks": .composition,
        "HeapStatistics": .composition,
        "other-process": .composition,
        "TestSupport": .composition,
    ]
}
