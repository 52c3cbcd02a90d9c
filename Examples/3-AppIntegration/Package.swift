// swift-tools-version: 6.1
import PackageDescription

// A small app package, written by hand; scaffold-repo added the Deck and Card stores to its
// StudyApp target with --into.
let package = Package(
    name: "StudyApp",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "StudyApp", targets: ["StudyApp"])
    ],
    targets: [
        .target(name: "StudyApp"),
        .testTarget(name: "StudyAppTests", dependencies: ["StudyApp"]),
    ]
)
