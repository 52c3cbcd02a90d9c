// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "CardStore",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "CardStore", targets: ["CardStore"])
    ],
    targets: [
        .target(name: "CardStore"),
        .testTarget(name: "CardStoreTests", dependencies: ["CardStore"]),
    ]
)
