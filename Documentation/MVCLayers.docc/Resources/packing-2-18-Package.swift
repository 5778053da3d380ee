// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "PackingList",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        .package(path: "../MVCLayers")
    ],
    targets: [
        .target(
            name: "PackingCore",
            dependencies: [
                .product(name: "MVCObservation", package: "MVCLayers"),
                .product(name: "MVCElements", package: "MVCLayers"),
                .product(name: "MVCListStore", package: "MVCLayers"),
                .product(name: "MVCDocumentStore", package: "MVCLayers"),
            ]
        ),
        .executableTarget(
            name: "PackingList",
            dependencies: [
                "PackingCore",
                .product(name: "MVCDocumentStore", package: "MVCLayers"),
                .product(name: "MVCListStore", package: "MVCLayers"),
            ]
        ),
        .testTarget(
            name: "PackingListTests",
            dependencies: ["PackingCore", .product(name: "MVCListStore", package: "MVCLayers")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
