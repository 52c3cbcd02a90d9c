// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "BadgeStore",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "BadgeStore", targets: ["BadgeStore"])
    ],
    targets: [
        .target(name: "BadgeStore"),
        .testTarget(name: "BadgeStoreTests", dependencies: ["BadgeStore"]),
    ]
)
