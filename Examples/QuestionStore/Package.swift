// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "QuestionStore",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "QuestionStore", targets: ["QuestionStore"])
    ],
    targets: [
        .target(name: "QuestionStore"),
        .testTarget(name: "QuestionStoreTests", dependencies: ["QuestionStore"]),
    ]
)
