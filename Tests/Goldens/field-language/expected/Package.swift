// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "BlogPostStore",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "BlogPostStore", targets: ["BlogPostStore"])
    ],
    targets: [
        .target(name: "BlogPostStore"),
        .testTarget(name: "BlogPostStoreTests", dependencies: ["BlogPostStore"]),
    ]
)
