// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "StartingPattern",
    // Observation (`@Observable`, the view-model's) needs macOS 14 and iOS 17.
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "StartingPattern", targets: ["StartingPattern"])
    ],
    targets: [
        .target(name: "StartingPattern"),
        .testTarget(name: "StartingPatternTests", dependencies: ["StartingPattern"]),
    ]
)
