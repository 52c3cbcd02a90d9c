// swift-tools-version: 6.2
import PackageDescription

// An app package with what Xcode 26's app template turns on, written by hand. scaffold-repo added a journal store (Note), a
// snapshot store (Label) and a sqlite store (Memo) to its target with --into, and this file
// follows what the sqlite run printed: the CSQLite system library, linked on Linux. This repository's own Package.swift
// builds the same folders with the same settings, so its `swift test` compiles and tests them.
let settings: [SwiftSetting] = [
    .defaultIsolation(MainActor.self),
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
    .enableUpcomingFeature("InferIsolatedConformances"),
    .unsafeFlags(["-warnings-as-errors"]),
]

let sqlite: Target.Dependency = .target(name: "CSQLite", condition: .when(platforms: [.linux]))

let package = Package(
    name: "MainActorByDefault",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    targets: [
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        .target(name: "MainActorByDefault", dependencies: [sqlite], swiftSettings: settings),
        .testTarget(
            name: "MainActorByDefaultTests", dependencies: ["MainActorByDefault", sqlite],
            swiftSettings: settings),
    ]
)
