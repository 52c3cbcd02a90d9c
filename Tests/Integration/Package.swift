// swift-tools-version: 6.2
import PackageDescription

// The integration package: every golden, example and host-settings package that the generator's
// tests compare byte for byte, compiled here with warnings as errors and their own tests run;
// the crash, fault, process-sharing and in-memory tests of the generated stores, with their
// child processes, and the tests of stored data across model versions; and the benchmark. `swift test` at the top of the repository builds and tests this
// package (SlowSuites.IntegrationPackageTests), so the generator's own build and its first unit
// test do not wait on the generated code. `Linked/` mirrors the repository's
// layout with links to the folders the targets live in (a target must be inside its package):
// Examples, Tests/Goldens, Tests/HostSettings and Sources/CSQLite.

/// A golden case: the generated package for one command line, compiled and tested here.
/// `root`, below `Linked/`, holds `Sources/<module>` and `Tests/<module>Tests`.
/// A sqlite golden links SQLite through this package's own CSQLite on Linux.
func golden(_ module: String, root: String, sqlite: Bool = false) -> [Target] {
    let library: [Target.Dependency] =
        sqlite ? [.target(name: "CSQLite", condition: .when(platforms: [.linux]))] : []
    return [
        .target(name: module, dependencies: library, path: "Linked/\(root)/Sources/\(module)"),
        .testTarget(
            name: "\(module)Tests", dependencies: [.target(name: module)] + library,
            path: "Linked/\(root)/Tests/\(module)Tests"),
    ]
}

/// The host settings matrix: the same three stores (a journal `Note`, a snapshot `Label`, a
/// sqlite `Memo`), generated with --into Tests/HostSettings/<target>, a small app package for
/// each group of settings an app target can have; compiled here with those settings and warnings
/// as errors, and their tests run. Each folder's own Package.swift declares the same settings.
func hostSettingsTargets() -> [Target] {
    let settings: [(target: String, settings: [SwiftSetting])] = [
        // (a) The plain Swift 6 defaults.
        ("Swift6Defaults", []),
        // (b) What Xcode 26's app template turns on.
        (
            "MainActorByDefault",
            [
                .defaultIsolation(MainActor.self),
                .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
                .enableUpcomingFeature("InferIsolatedConformances"),
            ]
        ),
        // (c) Swift 7's defaults for imports and existentials.
        (
            "Swift7Imports",
            [
                .enableUpcomingFeature("InternalImportsByDefault"),
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("MemberImportVisibility"),
            ]
        ),
        // (d) Swift 5 language mode with complete concurrency checking.
        ("Swift5Mode", [.swiftLanguageMode(.v5), .enableUpcomingFeature("StrictConcurrency")]),
    ]
    return settings.flatMap { target, settings -> [Target] in
        let all = settings + [.unsafeFlags(["-warnings-as-errors"])]
        let sqlite: Target.Dependency = .target(
            name: "CSQLite", condition: .when(platforms: [.linux]))
        return [
            .target(
                name: target, dependencies: [sqlite],
                path: "Linked/Tests/HostSettings/\(target)/Sources/\(target)", swiftSettings: all),
            .testTarget(
                name: "\(target)Tests", dependencies: [.target(name: target), sqlite],
                path: "Linked/Tests/HostSettings/\(target)/Tests/\(target)Tests", swiftSettings: all
            ),
        ]
    }
}

let package = Package(
    name: "scaffold-repo-integration",
    platforms: [.macOS(.v14)],
    products: [.executable(name: "store-bench", targets: ["StoreBench"])],
    targets: [
        .systemLibrary(name: "CSQLite", path: "Linked/Sources/CSQLite"),
        // Proof of the generated stores' promises: a benchmark, and the crash and fault tests'
        // child processes.
        .executableTarget(
            name: "StoreBench",
            dependencies: [
                "BenchJournal", "BenchJournalUUID", "BenchSnapshot", "BenchSQLite", "Notebook",
                "StudyApp", .target(name: "CSQLite", condition: .when(platforms: [.linux])),
            ]),
        .executableTarget(
            name: "StoreCrashChild", dependencies: ["BenchJournal", "BenchSQLite", "Notebook"]),
        .executableTarget(
            name: "StoreFaultChild", dependencies: ["BenchJournal", "BenchSnapshot", "BenchSQLite"]),
        .executableTarget(
            name: "StoreMemoryChild",
            dependencies: ["BenchJournal", "BenchSnapshot", "BenchSQLite"]),
        .testTarget(
            name: "StoreDurabilityTests",
            dependencies: [
                "StoreCrashChild", "StoreFaultChild", "StoreMemoryChild", "BenchJournal",
                "BenchJournalUUID", "BenchSnapshot", "BenchSQLite", "BookV1", "BookV2",
                "RecipeStore", "Notebook",
                .target(name: "CSQLite", condition: .when(platforms: [.linux])),
            ]),
    ]
        + golden("QuestionStore", root: "Examples/QuestionStore")
        // The workshop's steps: the starting pattern, by hand, and then generated with
        // --annotate.
        + golden("StartingPattern", root: "Examples/0-StartingPattern")
        + golden("FlashcardStore", root: "Examples/1-SnapshotStore")
        + golden("LessonStore", root: "Examples/2-JournalStore")
        + golden("StudyApp", root: "Examples/3-AppIntegration", sqlite: true)
        + golden("RecipeStore", root: "Examples/4-ModelChange")
        + golden("NoteStore", root: "Tests/Goldens/all-field-types/expected")
        + golden("Inventory", root: "Tests/Goldens/into-package/expected")
        + golden("CardStore", root: "Tests/Goldens/snapshot-storage/expected")
        + golden("EntryStore", root: "Tests/Goldens/sqlite-storage/expected", sqlite: true)
        + golden("BenchJournal", root: "Tests/Goldens/bench-journal/expected")
        + golden("BenchSnapshot", root: "Tests/Goldens/bench-snapshot/expected")
        + golden("BenchJournalUUID", root: "Tests/Goldens/bench-journal-uuid/expected")
        + golden("BenchSQLite", root: "Tests/Goldens/bench-sqlite/expected", sqlite: true)
        // :unique and :index in memory (the journal store), with UUID and Int ids.
        + golden("MemberStore", root: "Tests/Goldens/journal-indexes/expected")
        + golden("BadgeStore", root: "Tests/Goldens/journal-int-indexes/expected")
        // Five related models in one target (Tests/Goldens/related-models/README.md).
        + golden("Notebook", root: "Tests/Goldens/related-models/expected", sqlite: true)
        + golden("BlogPostStore", root: "Tests/Goldens/field-language/expected")
        + golden("TaskStore", root: "Tests/Goldens/collision-task/expected")
        + golden("ResultStore", root: "Tests/Goldens/collision-result/expected")
        + golden("CacheStore", root: "Tests/Goldens/collision-cache/expected")
        + golden("PersonStore", root: "Tests/Goldens/plural-person/expected")
        + golden("SheepStore", root: "Tests/Goldens/plural-override/expected")
        // A model and its next version (a field renamed, one removed, two added), whose stores
        // the evolution tests write with the first and open with the second.
        + golden("BookV1", root: "Tests/Goldens/evolution-v1/expected")
        + golden("BookV2", root: "Tests/Goldens/evolution-v2/expected")
        + hostSettingsTargets()
)
