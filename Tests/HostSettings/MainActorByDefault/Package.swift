// swift-tools-version: 6.2
import PackageDescription

// An app package with what Xcode 26's app template turns on, written by hand. scaffold-repo added a journal store (Note) and
// a snapshot store (Label) to its target with --into. This repository's own Package.swift
// builds the same folders with the same settings, so its `swift test` compiles and tests them.
let settings: [SwiftSetting] = [
    .defaultIsolation(MainActor.self),
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
    .enableUpcomingFeature("InferIsolatedConformances"),
    .unsafeFlags(["-warnings-as-errors"]),
]

let package = Package(
    name: "MainActorByDefault",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    targets: [
        .target(name: "MainActorByDefault", swiftSettings: settings),
        .testTarget(
            name: "MainActorByDefaultTests", dependencies: ["MainActorByDefault"],
            swiftSettings: settings),
    ]
)
