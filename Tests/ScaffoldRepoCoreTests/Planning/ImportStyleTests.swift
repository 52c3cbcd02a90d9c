import Foundation
import Testing

@testable import ScaffoldRepoCore

/// The generated files' imports follow the target's own: one module imported with a level below
/// `public` in one file and without a level in another does not compile.
@Suite struct ImportStyleTests {
    @Test func theLevelsOfAFilesImportsAreReadOutsideComments() {
        let levels = ImportStyle.levels(
            of: """
                internal import Foundation
                import Testing
                @testable import App
                #if canImport(SQLite3)
                    import SQLite3
                #endif
                private import struct Observation.ObservationRegistrar
                public import Dispatch
                // internal import XCTest
                let text = "package import Glibc"
                """)

        #expect(levels.bare == ["Testing", "App", "SQLite3"])
        #expect(levels.belowPublic == ["Foundation", "Observation"])
        // A comment after an import, and an import line inside a block comment.
        #expect(
            ImportStyle.levels(of: "internal import Foundation // not public: see ADR-12\n")
                .belowPublic == ["Foundation"])
        let commented = ImportStyle.levels(
            of: "/*\ninternal import Foundation\n*/\nimport Foundation\n")
        #expect(commented.bare == ["Foundation"] && commented.belowPublic.isEmpty)
    }

    @Test func aGeneratedImportTakesTheLevelTheTargetsFilesGiveItsModule() {
        let generated = """
            import Foundation
            public import Observation

            #if canImport(SQLite3)
                internal import SQLite3
            #else
                internal import CSQLite
            #endif
            import Testing
            """
        let levels = ImportStyle.Levels(
            bare: ["SQLite3", "Testing"], belowPublic: ["Foundation", "Observation"])

        #expect(
            ImportStyle.fitted(generated, to: levels)
                == """
                internal import Foundation
                public import Observation

                #if canImport(SQLite3)
                    import SQLite3
                #else
                    internal import CSQLite
                #endif
                import Testing
                """)
        // A target whose files give no level, or none at all, changes nothing.
        #expect(ImportStyle.fitted(generated, to: .init()) == generated)
        #expect(ImportStyle.fitted(generated, to: .init(bare: ["Foundation"])) == generated)
    }

    /// Generating into a target whose own file says `internal import Foundation` and imports
    /// SQLite without a level (Tests/HostSettings/Swift6Defaults builds such a target, and its
    /// test target has such a file too).
    @Test func aModelGeneratedIntoATargetImportsAsTheTargetsFilesDo() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        let own = folder.appendingPathComponent("Sources/App/Launch.swift")
        try FileManager.default.createDirectory(
            at: own.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("internal import Foundation\nimport SQLite3\n".utf8).write(to: own)
        try Data("// App\n".utf8).write(to: folder.appendingPathComponent("Package.swift"))

        for (model, storage) in [("Note", "journal"), ("Memo", "sqlite")] {
            let result = ScaffoldRepo.run(
                [
                    model, "id:UUID", "title:String", "--storage", storage, "--into", ".",
                    "--target", "App",
                ],
                currentDirectory: folder)
            #expect(result.exitCode == 0, "\(result.standardError)")
        }

        // The test target is another module, whose imports are its own.
        let sources = try TestPaths.files(below: folder).filter {
            $0.hasPrefix("Sources/App/") && $0.hasSuffix(".swift")
        }
        #expect(sources.count > 10)
        for path in sources {
            let text = try #require(TestPaths.text(folder.appendingPathComponent(path)))
            let levels = ImportStyle.levels(of: text)
            #expect(!levels.bare.contains("Foundation"), "\(path)")
            #expect(!levels.belowPublic.contains("SQLite3"), "\(path)")
        }
    }

    /// `own` records the hash of what is generated for the file now, fitted as generate fits it
    /// (its imports, `_Concurrency.Task`): `regen --check` then passes, with nothing to review.
    @Test func aFileOwnedInATargetWithItsOwnImportsAndTaskIsNotToReview() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        let own = folder.appendingPathComponent("Sources/App/Own.swift")
        try FileManager.default.createDirectory(
            at: own.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("internal import Foundation\npublic struct Task {}\n".utf8).write(to: own)
        try Data("// App\n".utf8).write(to: folder.appendingPathComponent("Package.swift"))
        let run = { (arguments: [String]) in
            ScaffoldRepo.run(arguments, currentDirectory: folder)
        }
        #expect(run(["Item", "id:UUID", "title", "--into", ".", "--target", "App"]).exitCode == 0)
        let files = ["Sources/App/Item.swift", "Sources/App/ItemListViewModel.swift"]
        #expect(run(["own"] + files + ["--into", "."]).exitCode == 0)
        for path in files {
            let file = folder.appendingPathComponent(path)
            try Data((try #require(TestPaths.text(file)) + "// mine\n").utf8).write(to: file)
        }

        let check = run(["regen", ".", "--check"])

        #expect(check.exitCode == 0, "\(check.standardOutput)")
        #expect(!check.standardOutput.contains("review"))
    }
}
