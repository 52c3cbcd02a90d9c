import Foundation
import ScaffoldRepoCore
import Testing

extension SlowSuites {
    /// Runs the built `scaffold-repo` executable as a user would, then builds and tests what it wrote.
    @Suite(.serialized) struct EndToEndTests {
        @Test
        func theExecutableCopiedAloneGeneratesAPackageThatBuildsWithoutWarningsAndPassesItsTests()
            throws
        {
            let folder = try TestPaths.makeTemporaryFolder()
            defer { TestPaths.removeTemporaryFolder(folder) }
            // Alone in a folder of its own: no Templates/ beside it, no repository around it.
            let binary = folder.appendingPathComponent("bin/scaffold-repo")
            try FileManager.default.createDirectory(
                at: binary.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: try TestPaths.builtExecutable("scaffold-repo"), to: binary)
            let work = folder.appendingPathComponent("work")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)

            let generate = try TestProcess.run(
                binary.path, ["Question", "id:String", "text:String"], in: work)
            #expect(generate.status == 0, "\(generate.output)")
            #expect(
                generate.output.contains(
                    "create    QuestionStore/Sources/QuestionStore/QuestionRepository.swift"))

            // Byte for byte what the repository's Examples/QuestionStore holds.
            let package = work.appendingPathComponent("QuestionStore")
            let example = TestPaths.repositoryRoot.appendingPathComponent("Examples/QuestionStore")
            let paths = try TestPaths.files(below: package)
            #expect(paths == (try TestPaths.files(below: example)))
            for path in paths {
                #expect(
                    TestPaths.text(package.appendingPathComponent(path))
                        == TestPaths.text(example.appendingPathComponent(path)),
                    "\(path) differs from Examples/QuestionStore")
            }

            let build = try TestProcess.run(
                "swift", ["build", "-Xswiftc", "-warnings-as-errors"], in: package)
            #expect(build.status == 0, "\(build.output)")
            #expect(!build.output.contains("warning:"), "\(build.output)")

            let test = try TestProcess.run("swift", ["test"], in: package)
            #expect(test.status == 0, "\(test.output)")
            let counts = TestProcess.testCounts(in: test.output)
            #expect(counts.xctest >= 8, "XCTest ran \(counts.xctest) tests:\n\(test.output)")
            #expect(
                counts.swiftTesting >= 8,
                "Swift Testing ran \(counts.swiftTesting) tests:\n\(test.output)")

            // A second run finds everything identical and leaves modification times alone.
            let repository = package.appendingPathComponent(
                "Sources/QuestionStore/QuestionRepository.swift")
            let before =
                try FileManager.default.attributesOfItem(atPath: repository.path)[.modificationDate]
                as? Date
            let again = try TestProcess.run(
                binary.path, ["Question", "id:String", "text:String"], in: work)
            #expect(again.status == 0)
            #expect(
                !again.output.contains("create ")
                    && again.output.contains("identical QuestionStore/Package.swift"))
            let after =
                try FileManager.default.attributesOfItem(atPath: repository.path)[.modificationDate]
                as? Date
            #expect(before == after)
        }

        @Test func badInputExitsTwoOnStandardError() throws {
            let folder = try TestPaths.makeTemporaryFolder()
            defer { TestPaths.removeTemporaryFolder(folder) }

            let result = try TestProcess.run(
                try TestPaths.builtExecutable("scaffold-repo").path, ["Question", "id:Strng"],
                in: folder,
                mergeErrors: false)

            #expect(result.status == 2)
            #expect(result.output == "")
            // What the run in-process says, which Documentation/commands.md shows
            // (CommandTests checks that).
            let inProcess = ScaffoldRepo.run(["Question", "id:Strng"], currentDirectory: folder)
            #expect(result.errors.hasPrefix("error: unknown type 'Strng' in 'id:Strng'."))
            #expect(result.errors == inProcess.standardError)
            #expect(try TestPaths.files(below: folder).isEmpty)
        }
    }
}
