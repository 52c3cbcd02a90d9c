// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "NoteStore",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "NoteStore", targets: ["NoteStore"])
    ],
    targets: [
        .target(name: "NoteStore"),
        .testTarget(name: "NoteStoreTests", dependencies: ["NoteStore"]),
    ]
)
