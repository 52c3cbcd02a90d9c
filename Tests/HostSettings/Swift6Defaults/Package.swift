// swift-tools-version: 6.2
import PackageDescription

// An app package with the plain Swift 6 defaults, written by hand. scaffold-repo added a journal store (Note) and
// a snapshot store (Label) to its target with --into. This repository's own Package.swift
// builds the same folders with the same settings, so its `swift test` compiles and tests them.
let settings: [SwiftSetting] = [
    .unsafeFlags(["-warnings-as-errors"])
]

let package = Package(
    name: "Swift6Defaults",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    targets: [
        .target(name: "Swift6Defaults", swiftSettings: settings),
        .testTarget(
            name: "Swift6DefaultsTests", dependencies: ["Swift6Defaults"], swiftSettings: settings),
    ]
)
