// swift-tools-version: 6.1
import PackageDescription

// Workshop: the library with the store, and its tests' target. The platforms are the first
// ones that have `@Observable` (iOS 17, macOS 14), which the view-model uses.
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
