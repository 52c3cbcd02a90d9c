// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "SheepStore",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "SheepStore", targets: ["SheepStore"])
    ],
    targets: [
        .target(name: "SheepStore"),
        .testTarget(name: "SheepStoreTests", dependencies: ["SheepStore"]),
    ]
)
