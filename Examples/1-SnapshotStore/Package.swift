// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "FlashcardStore",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "FlashcardStore", targets: ["FlashcardStore"])
    ],
    targets: [
        .target(name: "FlashcardStore"),
        .testTarget(name: "FlashcardStoreTests", dependencies: ["FlashcardStore"]),
    ]
)
