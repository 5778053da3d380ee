// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "PackingList",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        // MVCLayers cloned beside this package; its identity is the folder's name.
        .package(path: "../MVCLayers")
    ],
    targets: [
        .target(
            name: "PackingCore",
            dependencies: [
                .product(name: "MVCObservation", package: "MVCLayers")
            ]
        ),
        .executableTarget(name: "PackingList", dependencies: ["PackingCore"]),
        .testTarget(name: "PackingListTests", dependencies: ["PackingCore"]),
    ],
    swiftLanguageModes: [.v6]
)
