// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "RecipeStore",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "RecipeStore", targets: ["RecipeStore"])
    ],
    targets: [
        .target(name: "RecipeStore"),
        .testTarget(name: "RecipeStoreTests", dependencies: ["RecipeStore"]),
    ]
)
