// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "ResultStore",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "ResultStore", targets: ["ResultStore"])
    ],
    targets: [
        .target(name: "ResultStore"),
        .testTarget(name: "ResultStoreTests", dependencies: ["ResultStore"]),
    ]
)
