// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "CacheStore",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "CacheStore", targets: ["CacheStore"])
    ],
    targets: [
        .target(name: "CacheStore"),
        .testTarget(name: "CacheStoreTests", dependencies: ["CacheStore"]),
    ]
)
