import Foundation
import Testing

/// What the workshop's READMEs say of their tests stays true: the tests they name exist in the
/// step (or, for a test that a "Try" adds by regenerating the step, in the scenarios the
/// generator writes), and the number of behaviours they give is the number the step's suites
/// have.
@Suite struct WorkshopReadmeTests {
    /// `Examples/0-…` to `Examples/4-…`.
    static let steps: [String] = {
        let examples = TestPaths.repositoryRoot.appendingPathComponent("Examples")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: examples.path)) ?? []
        return names.filter { $0.first?.isNumber == true }.sorted().map { "Examples/\($0)" }
    }()

    /// The step's Swift files under Tests/ whose names end with `suffix`, as one text.
    private func tests(of step: String, endingWith suffix: String = ".swift") throws -> String {
        let folder = TestPaths.repositoryRoot.appendingPathComponent(step)
        return try TestPaths.files(below: folder)
            .filter { $0.hasPrefix("Tests/") && $0.hasSuffix(suffix) }
            .compactMap { TestPaths.text(folder.appendingPathComponent($0)) }
            .joined(separator: "\n")
    }

    /// Every scenario the generator can write, from Templates/.
    private var scenarios: String {
        let templates = TestPaths.repositoryRoot.appendingPathComponent("Templates")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: templates.path)) ?? []
        return names.filter { $0.hasSuffix(".partial.tmpl") }
            .compactMap { TestPaths.text(templates.appendingPathComponent($0)) }
            .joined(separator: "\n")
    }

    @Test(arguments: steps)
    func everyTestAStepsReadmeNamesExistsInThatStep(step: String) throws {
        let readme = try #require(
            TestPaths.text(TestPaths.repositoryRoot.appendingPathComponent("\(step)/README.md")))
        let tests = try tests(of: step)
        let generated = scenarios

        for match in readme.matches(of: /`(test[A-Z]\w*)`/) {
            let name = String(match.output.1)
            #expect(
                tests.contains("func \(name)(") || generated.contains("func \(name)("),
                "\(step)/README.md names \(name), which no test of it or of the generator has")
        }
    }

    /// `swift test --filter X` runs nothing, and still passes, when X names no test: each
    /// dotted part of a filter in a step's README is a suite or a test of that step, which the
    /// command, run in the step's folder, runs (or a suite the README itself gives, for the
    /// reader to add).
    @Test(arguments: steps)
    func everyFilterAStepsReadmeRunsNamesTestsOfThatStep(step: String) throws {
        let readme = try #require(
            TestPaths.text(TestPaths.repositoryRoot.appendingPathComponent("\(step)/README.md")))
        let tests = try tests(of: step)

        for match in readme.matches(of: /swift test --filter ([\w.]+)/) {
            for part in match.output.1.split(separator: ".") {
                #expect(
                    tests.contains("func \(part)(") || tests.contains("struct \(part) ")
                        || tests.contains("class \(part): ")
                        || readme.contains("struct \(part) "),
                    "\(step)/README.md: --filter \(match.output.1) names \(part), no test of it")
            }
        }
    }

    @Test(arguments: steps)
    func theBehavioursAStepsReadmeCountsAreItsTests(step: String) throws {
        let readme = try #require(
            TestPaths.text(TestPaths.repositoryRoot.appendingPathComponent("\(step)/README.md")))
        let xctests =
            try tests(of: step, endingWith: "XCTests.swift")
            .components(separatedBy: "func test").count - 1

        for match in readme.matches(of: /(\d+) behaviours/) {
            #expect(Int(match.output.1) == xctests, "\(step)/README.md: \(match.output.0)")
        }
    }

    /// The numbers of tests a step's README says its `swift test` passes (the first such
    /// sentence, which describes the step as it is) are those its suites declare: each
    /// `func test` of its XCTest files, and each `@Test` of its other test files.
    @Test(arguments: steps)
    func theTestsAStepsReadmeSaysPassAreItsTests(step: String) throws {
        let readme = try #require(
            TestPaths.text(TestPaths.repositoryRoot.appendingPathComponent("\(step)/README.md")))
        let xctest = try tests(of: step, endingWith: "XCTests.swift")
        guard !xctest.isEmpty else { return }  // Step 0 has Swift Testing's flaw tests only.
        let swiftTesting = try TestPaths.files(
            below: TestPaths.repositoryRoot.appendingPathComponent(step)
        )
        .filter { $0.hasPrefix("Tests/") && $0.hasSuffix("Tests.swift") }
        .filter { !$0.hasSuffix("XCTests.swift") }
        .compactMap {
            TestPaths.text(TestPaths.repositoryRoot.appendingPathComponent(step + "/" + $0))
        }
        .joined(separator: "\n")

        let said = try #require(
            readme.firstMatch(
                of:
                    /`swift test`\.\s+(\d+)\s+XCTest(?:\s+tests\s+\([^)]*\))?\s+and\s+(\d+)\s+Swift\s+Testing\s+tests/
            ), "\(step)/README.md should say how many tests `swift test` passes")
        #expect(Int(said.output.1) == xctest.components(separatedBy: "func test").count - 1)
        #expect(
            Int(said.output.2)
                == swiftTesting.split(separator: "\n").filter {
                    $0.drop { $0 == " " }.hasPrefix("@Test")
                }.count, "\(step)/README.md: \(said.output.0)")
    }
}
