// swift-tools-version: 6.2
//
// MVCLayers: the layers of an MVC app as separate modules, each importable on its own.
// The manifest is a table of contents in two floors: the layer line (Modules/), which holds the
// ideas and declares ports, then the machine room (Adapters/), whose modules implement them.
// One MARK per module, each beside its tests.
// The import rules between the layers are in ARCHITECTURE.md and checked by ArchitectureTests.

import PackageDescription

/// Settings every target shares: the upcoming features that keep module boundaries honest.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "MVCLayers",
    // Synchronization's Mutex and Atomic (observations ended on any thread) set the floor on
    // Apple platforms; Linux has them with the toolchain.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        // The layer line.
        .library(name: "MVCTracing", targets: ["MVCTracing"]),
        .library(name: "MVCObservation", targets: ["MVCObservation"]),
        .library(name: "MVCElements", targets: ["MVCElements"]),
        .library(name: "MVCModel", targets: ["MVCModel"]),
        .library(name: "MVCListStore", targets: ["MVCListStore"]),
        .library(name: "MVCStore", targets: ["MVCStore"]),
        .library(name: "MVCDelegates", targets: ["MVCDelegates"]),
        .library(name: "MVCPresenter", targets: ["MVCPresenter"]),
        .library(name: "MVCPresenterTesting", targets: ["MVCPresenterTesting"]),
        .library(name: "MVCObservationBridge", targets: ["MVCObservationBridge"]),
        // The machine room.
        .library(name: "MVCDocumentStore", targets: ["MVCDocumentStore"]),
        .library(name: "MVCSQLiteStore", targets: ["MVCSQLiteStore"]),
        .library(name: "MVCPostgresStore", targets: ["MVCPostgresStore"]),
        .library(name: "MVCAvatarServiceLive", targets: ["MVCAvatarServiceLive"]),
        .executable(name: "switches-essentials", targets: ["switches-essentials"]),
        .executable(name: "avatars-essentials", targets: ["avatars-essentials"]),
        .executable(name: "attractions-essentials", targets: ["attractions-essentials"]),
        .executable(name: "switches", targets: ["switches"]),
        .executable(name: "attractions", targets: ["attractions"]),
        .executable(name: "avatars", targets: ["avatars"]),
        .executable(name: "benchmarks", targets: ["benchmarks"]),
    ],
    targets: [
        // ======== The layer line (Modules/): the three ideas and the generic store ========
        // No module here depends on an adapter; ArchitectureTests checks it.

        // MARK: Tracing: hops between named layers, for --trace

        .target(
            name: "MVCTracing",
            path: "Modules/Tracing",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TracingTests",
            dependencies: ["MVCTracing"],
            swiftSettings: strictSettings
        ),

        // MARK: Observation: per-property handlers, tokens, batching, keyed channels

        .target(
            name: "MVCObservation",
            path: "Modules/Observation",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ObservationTests",
            dependencies: ["MVCObservation"],
            swiftSettings: strictSettings
        ),

        // MARK: Elements: what a list store can hold, described field by field (no sample's domain)

        .target(
            name: "MVCElements",
            path: "Modules/Elements",
            swiftSettings: strictSettings
        ),

        // MARK: Model: the samples' domain values and validation

        .target(
            name: "MVCModel",
            dependencies: ["MVCElements", "MVCObservation", "MVCTracing"],
            path: "Modules/Model",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ModelTests",
            dependencies: ["MVCModel", "MVCElements", "MVCObservation", "MVCTracing"],
            swiftSettings: strictSettings
        ),

        // MARK: List store: a list of any element, edited undoably, and the port adapters plug into

        .target(
            name: "MVCListStore",
            dependencies: ["MVCElements", "MVCObservation", "MVCTracing"],
            path: "Modules/ListStore",
            swiftSettings: strictSettings
        ),

        // MARK: Store: the samples' stores (the attractions list, the avatars facade)

        .target(
            name: "MVCStore",
            dependencies: ["MVCListStore", "MVCModel", "MVCObservation", "MVCTracing"],
            path: "Modules/Store",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "StoreTests",
            dependencies: [
                "MVCStore", "MVCListStore", "MVCElements", "MVCModel", "MVCObservation",
                "TestSupport",
            ],
            swiftSettings: strictSettings
        ),
        // What the store's and the machine room's tests share: a test clock, a seeded generator,
        // a change log. Not a product.
        .target(
            name: "TestSupport",
            dependencies: ["MVCStore", "MVCListStore", "MVCModel", "MVCObservation"],
            path: "Tests/TestSupport",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "other-process",
            dependencies: [
                "MVCStore", "MVCListStore", "MVCSQLiteStore", "MVCPostgresStore", "MVCModel",
                "MVCDocumentStore", "AttractionsStorage",
            ],
            path: "Tests/OtherProcess",
            swiftSettings: strictSettings
        ),

        // MARK: Delegates: editing through protocols

        .target(
            name: "MVCDelegates",
            dependencies: ["MVCElements", "MVCModel", "MVCListStore", "MVCStore", "MVCTracing"],
            path: "Modules/Delegates",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DelegatesTests",
            dependencies: [
                "MVCDelegates", "MVCStore", "MVCListStore", "MVCModel", "MVCObservation",
                "MVCDocumentStore", "MVCTracing",
            ],
            swiftSettings: strictSettings
        ),

        // MARK: Presenter: headless presenters, intents in, view-state out

        .target(
            name: "MVCPresenter",
            dependencies: [
                "MVCElements", "MVCModel", "MVCObservation", "MVCListStore", "MVCStore",
                "MVCDelegates",
                "MVCTracing",
            ],
            path: "Modules/Presenter",
            swiftSettings: strictSettings
        ),
        .target(
            name: "MVCPresenterTesting",
            dependencies: ["MVCPresenter", "MVCObservation"],
            path: "Modules/PresenterTesting",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PresenterTests",
            dependencies: [
                "MVCPresenter", "MVCPresenterTesting", "MVCElements", "MVCModel", "MVCObservation",
                "MVCListStore", "MVCStore", "MVCDelegates", "MVCDocumentStore", "MVCTracing",
                "AttractionsStorage",
            ],
            swiftSettings: strictSettings
        ),

        // MARK: Observation bridge: presenters and @Observable classes, both ways with Apple's Observation

        .target(
            name: "MVCObservationBridge",
            dependencies: ["MVCPresenter", "MVCObservation"],
            path: "Modules/ObservationBridge",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ObservationBridgeTests",
            dependencies: [
                "MVCObservationBridge", "MVCPresenter", "MVCObservation", "MVCModel",
            ],
            swiftSettings: strictSettings
        ),

        // ======== The machine room (Adapters/): leaf modules behind the store's ports ========
        // Each depends inward on the layer line; a sample's main.swift picks the ones it uses.

        // MARK: JSON document adapter (MVCDocumentStore): a list kept as one file, shared by processes, saved in bursts

        .target(
            name: "MVCDocumentStore",
            dependencies: ["MVCListStore", "MVCElements", "MVCObservation", "MVCTracing"],
            path: "Adapters/JSONDocument",
            swiftSettings: strictSettings
        ),

        // MARK: SQLite adapter: a list store's persistence as a database, one row per element

        .systemLibrary(
            name: "CSQLite",
            path: "Adapters/CSQLite",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(
            name: "MVCSQLiteStore",
            dependencies: [
                "CSQLite", "MVCListStore", "MVCElements", "MVCObservation", "MVCTracing",
            ],
            path: "Adapters/SQLite",
            swiftSettings: strictSettings
        ),

        // MARK: PostgreSQL adapter: a list shared by several machines through a server

        .systemLibrary(
            name: "CPostgres",
            path: "Adapters/CPostgres",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        .target(
            name: "MVCPostgresStore",
            dependencies: [
                "CPostgres", "MVCListStore", "MVCElements", "MVCObservation", "MVCTracing",
            ],
            path: "Adapters/Postgres",
            swiftSettings: strictSettings
        ),

        // MARK: Live avatar service adapter: the only module that links networking (URLSession)

        .target(
            name: "MVCAvatarServiceLive",
            dependencies: ["MVCStore", "MVCModel"],
            path: "Adapters/AvatarServiceLive",
            swiftSettings: strictSettings
        ),

        // MARK: The machine room's tests: each adapter's, and the promises every list adapter
        // keeps to a second process, run against each (one suite of cases, one set of helpers)

        .testTarget(
            name: "AdapterTests",
            dependencies: [
                "MVCStore", "MVCListStore", "MVCElements", "MVCSQLiteStore", "CSQLite",
                "MVCPostgresStore", "MVCModel", "MVCObservation", "MVCDocumentStore", "MVCTracing",
                "MVCAvatarServiceLive", "AttractionsStorage", "other-process", "TestSupport",
            ],
            swiftSettings: strictSettings
        ),

        // ======== Composition roots and checks ========

        // MARK: Essentials: each post's idea alone, a small program importing no module of this package

        .executableTarget(
            name: "switches-essentials",
            path: "Samples/Essentials/Switches",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "avatars-essentials",
            path: "Samples/Essentials/Avatars",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "attractions-essentials",
            path: "Samples/Essentials/Attractions",
            swiftSettings: strictSettings
        ),

        // MARK: Samples: the View layer, one executable per source post

        .target(
            name: "SampleSupport",
            path: "Samples/Support",
            swiftSettings: strictSettings
        ),
        // The attractions in the machine room: their JSON file format, and their database rows.
        .target(
            name: "AttractionsStorage",
            dependencies: ["MVCModel", "MVCElements", "MVCListStore", "MVCDocumentStore"],
            path: "Samples/AttractionsStorage",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "switches",
            dependencies: [
                "MVCPresenter", "MVCModel", "MVCObservation", "MVCTracing", "SampleSupport",
            ],
            path: "Samples/Switches",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "attractions",
            dependencies: [
                "MVCPresenter", "MVCElements", "MVCListStore", "MVCStore", "MVCSQLiteStore",
                "MVCPostgresStore",
                "MVCModel", "MVCObservation", "MVCDocumentStore", "AttractionsStorage",
                "MVCTracing",
                "SampleSupport",
            ],
            path: "Samples/Attractions",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "avatars",
            dependencies: [
                "MVCPresenter", "MVCStore", "MVCAvatarServiceLive", "MVCModel", "MVCObservation",
                "MVCTracing", "SampleSupport",
            ],
            path: "Samples/Avatars",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SampleTests",
            dependencies: [
                "switches", "attractions", "avatars", "SampleSupport", "switches-essentials",
                "avatars-essentials", "attractions-essentials",
            ],
            swiftSettings: strictSettings
        ),

        // MARK: Architecture: the layering rules, checked

        .testTarget(
            name: "ArchitectureTests",
            swiftSettings: strictSettings
        ),

        // MARK: Benchmarks: `swift run -c release benchmarks`

        .executableTarget(
            name: "benchmarks",
            dependencies: [
                "MVCObservation", "MVCModel", "MVCDocumentStore", "MVCListStore", "MVCElements",
                "MVCStore", "MVCSQLiteStore", "AttractionsStorage",
                "MVCPresenter", "MVCObservationBridge", "MVCAvatarServiceLive", "HeapStatistics",
                "CSQLite", "MVCPostgresStore", "CPostgres",
            ],
            path: "Benchmarks/Suite",
            swiftSettings: strictSettings
        ),
        .target(name: "HeapStatistics", path: "Benchmarks/HeapStatistics"),
    ],
    swiftLanguageModes: [.v6]
)
