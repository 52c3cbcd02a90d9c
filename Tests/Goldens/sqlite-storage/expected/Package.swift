// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "EntryStore",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "EntryStore", targets: ["EntryStore"])
    ],
    targets: [
        // SQLite: Apple platforms have `import SQLite3`; Linux links the system's libsqlite3
        // (Debian and Ubuntu: apt-get install libsqlite3-dev) through this module map.
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        .target(
            name: "EntryStore",
            dependencies: [.target(name: "CSQLite", condition: .when(platforms: [.linux]))]),
        .testTarget(
            name: "EntryStoreTests",
            dependencies: [
                "EntryStore", .target(name: "CSQLite", condition: .when(platforms: [.linux])),
            ]),
    ]
)
