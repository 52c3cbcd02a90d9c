import Foundation
import Testing

extension SlowSuites {
    /// The command plugin, as a package that depends on this repository uses it: generate into a
    /// target, check it with regen, then build and test that package.
    @Suite struct PluginTests {
        @Test func thePluginGeneratesIntoATargetThatBuildsAndPassesItsTests() throws {
            let folder = try TestPaths.makeTemporaryFolder()
            defer { TestPaths.removeTemporaryFolder(folder) }
            try makeAppPackage(in: folder)
            let resolve = try TestProcess.run("swift", ["package", "resolve"], in: folder)
            guard resolve.status == 0 else {
                // Only a path dependency is involved; this would mean SwiftPM itself is unusable.
                print(
                    "PluginTests skipped: the package did not resolve offline:\n\(resolve.output)")
                return
            }
            let plugin = ["package", "--allow-writing-to-package-directory", "scaffold-repo"]

            let generate = try TestProcess.run(
                "swift",
                plugin + ["Note", "id:UUID", "title", "body:String?", "--target", "AppCore"],
                in: folder)

            #expect(generate.status == 0, "\(generate.output)")
            #expect(generate.output.contains("create    Sources/AppCore/NoteRepository.swift\n"))
            let check = try TestProcess.run("swift", plugin + ["regen", "--check"], in: folder)
            #expect(check.status == 0, "\(check.output)")
            let typo = try TestProcess.run("swift", plugin + ["regne"], in: folder)
            #expect(typo.status != 0)
            #expect(typo.output.contains("Did you mean regen?"))
            let test = try TestProcess.run("swift", ["test"], in: folder)
            #expect(test.status == 0, "\(test.output)")
            let counts = TestProcess.testCounts(in: test.output)
            #expect(counts.xctest > 0 && counts.xctest == counts.swiftTesting)
        }

        /// A package `App` with an empty-ish target `AppCore` and its test target, depending on
        /// this repository by path.
        private func makeAppPackage(in folder: URL) throws {
            let manifest = """
                // swift-tools-version: 6.1
                import PackageDescription

                let package = Package(
                    name: "App",
                    platforms: [.macOS(.v14), .iOS(.v17)],
                    dependencies: [.package(path: "\(TestPaths.repositoryRoot.path)")],
                    targets: [
                        .target(name: "AppCore"),
                        .testTarget(name: "AppCoreTests", dependencies: ["AppCore"]),
                    ]
                )

                """
            for (path, text) in [
                ("Package.swift", manifest), ("Sources/AppCore/App.swift", "public enum App {}\n"),
                ("Tests/AppCoreTests/AppTests.swift", "import AppCore\n"),
            ] {
                let url = folder.appendingPathComponent(path)
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url)
            }
        }
    }
}
