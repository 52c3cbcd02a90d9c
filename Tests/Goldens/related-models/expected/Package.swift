// swift-tools-version: 6.2
import PackageDescription

// An app's data: folders, their notes, the notes' attachments and tags, in one target that
// shares one SQLite database. Written by hand; the models were generated into it (see
// ../README.md).
let package = Package(
    name: "Notebook",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "Notebook", targets: ["Notebook"])
    ],
    targets: [
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        .target(
            name: "Notebook",
            dependencies: [.target(name: "CSQLite", condition: .when(platforms: [.linux]))]),
        .testTarget(
            name: "NotebookTests",
            dependencies: [
                "Notebook", .target(name: "CSQLite", condition: .when(platforms: [.linux])),
            ]),
    ]
)
