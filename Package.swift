// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "scaffold-repo",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "scaffold-repo", targets: ["scaffold-repo"]),
        .plugin(name: "ScaffoldRepoPlugin", targets: ["ScaffoldRepoPlugin"]),
    ],
    targets: [
        .executableTarget(name: "scaffold-repo", dependencies: ["ScaffoldRepoCore"]),
        .target(name: "ScaffoldRepoCore", plugins: ["EmbedTemplates"]),
        .plugin(
            name: "EmbedTemplates", capability: .buildTool(), dependencies: ["TemplateEmbedder"]),
        .executableTarget(name: "TemplateEmbedder"),
        // The store's engine, which the generator writes into every generated module as it is,
        // less its // Workshop: notes without --annotate (StoreFiles.swift, StoredValues.swift, JournalStore.swift, SnapshotStore.swift,
        // LiveList.swift, SQLiteStore.swift, StoreQuery.swift, SQLiteRelations.swift), and its test support
        // (SampleData.swift, StoredRows.swift): compiled and tested here. SQLite's C API on
        // Linux (Apple platforms have `import SQLite3`): libsqlite3-dev, through Sources/CSQLite,
        // whose module map a sqlite package gets too.
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        .target(
            name: "StoreEngine",
            dependencies: [.target(name: "CSQLite", condition: .when(platforms: [.linux]))]),
        .target(
            name: "StoreEngineTestSupport",
            dependencies: [.target(name: "CSQLite", condition: .when(platforms: [.linux]))]),
        .testTarget(
            name: "StoreEngineTests", dependencies: ["StoreEngine", "StoreEngineTestSupport"]),
        // `swift package scaffold-repo ...` in a package that depends on this one.
        .plugin(
            name: "ScaffoldRepoPlugin",
            capability: .command(
                intent: .custom(
                    verb: "scaffold-repo",
                    description: "Generate a model store into a target of this package"),
                permissions: [
                    .writeToPackageDirectory(reason: "scaffold-repo writes the generated files")
                ]),
            dependencies: ["scaffold-repo"]),
        // The generator's tests. One of them builds and tests Tests/Integration, the package
        // that compiles every golden, example and host-settings package with the durability
        // tests of the generated stores (crash, fault, process sharing, in memory, stored data
        // across model versions) and the benchmark, so that this package builds without them.
        .testTarget(
            name: "ScaffoldRepoCoreTests", dependencies: ["ScaffoldRepoCore", "scaffold-repo"]),
    ]
)
