import Foundation
import Testing

/// Runs the built `scaffold-repo` executable as a user would, then builds and tests what it wrote.
@Suite(.serialized) struct EndToEndTests {
    @Test func theExecutableCopiedAloneGeneratesAPackageThatBuildsWithoutWarningsAndPassesItsTests()
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

        let generate = try run(binary.path, ["Question", "id:String", "text:String"], in: work)
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

        let build = try run("swift", ["build", "-Xswiftc", "-warnings-as-errors"], in: package)
        #expect(build.status == 0, "\(build.output)")
        #expect(!build.output.contains("warning:"), "\(build.output)")

        let test = try run("swift", ["test"], in: package)
        #expect(test.status == 0, "\(test.output)")
        let xctestCount = firstNumber(in: test.output, after: "Executed ")
        let swiftTestingCount = firstNumber(in: test.output, after: "Test run with ")
        #expect((xctestCount ?? 0) >= 8, "XCTest ran \(xctestCount ?? 0) tests:\n\(test.output)")
        #expect(
            (swiftTestingCount ?? 0) >= 8,
            "Swift Testing ran \(swiftTestingCount ?? 0) tests:\n\(test.output)")

        // A second run finds everything identical and leaves modification times alone.
        let repository = package.appendingPathComponent(
            "Sources/QuestionStore/QuestionRepository.swift")
        let before =
            try FileManager.default.attributesOfItem(atPath: repository.path)[.modificationDate]
            as? Date
        let again = try run(binary.path, ["Question", "id:String", "text:String"], in: work)
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

        let result = try run(
            try TestPaths.builtExecutable("scaffold-repo").path, ["Question", "id:Strng"],
            in: folder,
            mergeErrors: false)

        #expect(result.status == 2)
        #expect(result.output == "")
        #expect(
            result.errors
                == "error: unknown type 'Strng' in 'id:Strng'. Did you mean String? Types: String, Int, Int64, Double, Float, Bool, Date, UUID, URL, Decimal, Data; T? optional, [T] array, [String:T] dictionary, enum(a,b)\n"
        )
        #expect(try TestPaths.files(below: folder).isEmpty)
    }

    // MARK: - Helpers

    private struct Outcome {
        let status: Int32
        let output: String
        let errors: String
    }

    /// Runs `command` (a path, or a name looked up on PATH) and waits for it.
    private func run(
        _ command: String, _ arguments: [String], in folder: URL, mergeErrors: Bool = true
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [command] + arguments
        process.currentDirectoryURL = folder
        let output = Pipe()
        let errors = mergeErrors ? output : Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read before waiting, so a full pipe cannot block the child.
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = mergeErrors ? Data() : errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            errors: String(decoding: errorData, as: UTF8.self))
    }

    private func firstNumber(in text: String, after marker: String) -> Int? {
        guard let range = text.range(of: marker) else { return nil }
        return Int(text[range.upperBound...].prefix { $0.isNumber })
    }
}
