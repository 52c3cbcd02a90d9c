// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "PersonStore",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "PersonStore", targets: ["PersonStore"])
    ],
    targets: [
        .target(name: "PersonStore"),
        .testTarget(name: "PersonStoreTests", dependencies: ["PersonStore"]),
    ]
)
