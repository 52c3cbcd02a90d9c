// swift-tools-version: 6.2
import PackageDescription

// An app package with Swift 5 language mode with complete concurrency checking, written by hand. scaffold-repo added a journal store (Note), a
// snapshot store (Label) and a sqlite store (Memo) to its target with --into, and this file
// follows what the sqlite run printed: the CSQLite system library, linked on Linux. This repository's own Package.swift
// builds the same folders with the same settings, so its `swift test` compiles and tests them.
let settings: [SwiftSetting] = [
    .swiftLanguageMode(.v5),
    .enableUpcomingFeature("StrictConcurrency"),
    .unsafeFlags(["-warnings-as-errors"]),
]

let sqlite: Target.Dependency = .target(name: "CSQLite", condition: .when(platforms: [.linux]))

let package = Package(
    name: "Swift5Mode",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    targets: [
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        .target(name: "Swift5Mode", dependencies: [sqlite], swiftSettings: settings),
        .testTarget(
            name: "Swift5ModeTests", dependencies: ["Swift5Mode", sqlite], swiftSettings: settings),
    ]
)
