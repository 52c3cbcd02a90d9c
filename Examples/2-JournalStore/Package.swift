// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "LessonStore",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "LessonStore", targets: ["LessonStore"])
    ],
    targets: [
        .target(name: "LessonStore"),
        .testTarget(name: "LessonStoreTests", dependencies: ["LessonStore"]),
    ]
)
