// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "TaskStore",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "TaskStore", targets: ["TaskStore"])
    ],
    targets: [
        .target(name: "TaskStore"),
        .testTarget(name: "TaskStoreTests", dependencies: ["TaskStore"]),
    ]
)
