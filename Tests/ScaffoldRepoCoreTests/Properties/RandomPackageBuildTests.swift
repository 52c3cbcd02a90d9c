import Foundation
import Testing

@testable import ScaffoldRepoCore

extension SlowSuites {
    /// Twenty seeded random models generated into one target (so they share one StoreFiles.swift)
    /// build without warnings, and their generated suites pass. `PROPERTY_TEST_SEED` replays.
    @Suite struct RandomPackageBuildTests {
        @Test func aBatchOfRandomModelsInOnePackageBuildsWithoutWarningsAndPassesItsTests() throws {
            let folder = try TestPaths.makeTemporaryFolder()
            defer { TestPaths.removeTemporaryFolder(folder) }
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent("Sources/Batch"),
                withIntermediateDirectories: true)
            try Data(
                """
                // swift-tools-version: 6.1
                import PackageDescription

                let package = Package(
                    name: "Batch",
                    platforms: [.macOS(.v14), .iOS(.v17)],
                    targets: [
                        .target(name: "Batch"),
                        .testTarget(name: "BatchTests", dependencies: ["Batch"]),
                    ]
                )

                """.utf8
            ).write(to: folder.appendingPathComponent("Package.swift"))
            var generator = SpecGenerator(random: SplitMix64(seed: PropertyTests.seed &+ 1))
            var models: [[String]] = []
            for index in 0..<20 {
                // One package needs distinct type names: number them.
                let name =
                    Names.typeName(fromAnyCase: generator.pick(SpecGenerator.modelWords))
                    + "\(index)"
                let arguments =
                    generator.validArguments(modelName: name) + [
                        "--into", ".", "--target", "Batch",
                    ]
                let result = ScaffoldRepo.run(arguments, currentDirectory: folder)
                #expect(
                    result.exitCode == 0,
                    "seed \(PropertyTests.seed &+ 1): \(arguments): \(result.standardError)")
                models.append(arguments)
            }

            let build = try TestProcess.run(
                "swift", ["build", "--build-tests", "-Xswiftc", "-warnings-as-errors"], in: folder)
            #expect(
                build.status == 0,
                "seed \(PropertyTests.seed &+ 1), models \(models):\n\(build.output)")
            let test = try TestProcess.run("swift", ["test"], in: folder)
            #expect(
                test.status == 0,
                "seed \(PropertyTests.seed &+ 1), models \(models):\n\(test.output)")
            let counts = TestProcess.testCounts(in: test.output)
            #expect(counts.xctest >= 20 * 11 && counts.swiftTesting >= 20 * 11, "\(counts)")
            #expect(Set(models.map { $0[0] }).count == 20)
        }
    }
}
