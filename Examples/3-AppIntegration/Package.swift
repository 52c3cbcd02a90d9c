// swift-tools-version: 6.1
import PackageDescription

// A small app package, written by hand; scaffold-repo added the Deck and Card stores to its
// StudyApp target with --into, and printed the CSQLite lines (SQLite on Linux).
let package = Package(
    name: "StudyApp",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "StudyApp", targets: ["StudyApp"])
    ],
    targets: [
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        .target(
            name: "StudyApp",
            dependencies: [.target(name: "CSQLite", condition: .when(platforms: [.linux]))]),
        .testTarget(
            name: "StudyAppTests",
            dependencies: [
                "StudyApp", .target(name: "CSQLite", condition: .when(platforms: [.linux])),
            ]),
    ]
)
