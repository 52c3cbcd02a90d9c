// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "MemberStore",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "MemberStore", targets: ["MemberStore"])
    ],
    targets: [
        .target(name: "MemberStore"),
        .testTarget(name: "MemberStoreTests", dependencies: ["MemberStore"]),
    ]
)
