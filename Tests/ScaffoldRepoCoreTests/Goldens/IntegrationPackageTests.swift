import Foundation
import Testing

extension SlowSuites {
    /// `Tests/Integration`: every golden, example and host-settings package compiled with
    /// warnings as errors and its own tests run, with the durability tests of the generated
    /// stores (crash, fault, process sharing, in memory, stored data across model versions). It
    /// is a package of its own so that this package's build and first unit test do not wait on
    /// the generated code; this test is how `swift test` at the top runs it. Its output is
    /// printed, so a run shows each package's tests.
    @Suite struct IntegrationPackageTests {
        @Test func everyGeneratedPackageBuildsWithoutWarningsAndItsTestsPass() throws {
            let run = try TestProcess.run(
                "swift", ["test", "-Xswiftc", "-warnings-as-errors"],
                in: TestPaths.integrationPackage)
            print(run.output)

            // The lines that say what failed, so the failure reads without the whole output.
            let failures = run.output.split(separator: "\n").filter { line in
                line.contains("error:") || line.contains("✘") || line.contains(" failed (")
            }
            let summary =
                "swift test in Tests/Integration failed (its output is above):\n"
                + failures.prefix(40).joined(separator: "\n")
            #expect(run.status == 0, "\(summary)")
            // Every golden and example has both suites, so both frameworks ran many tests.
            let counts = TestProcess.testCounts(in: run.output)
            let packages = try Self.declaredPackages()
            #expect(packages.count > 20, "\(packages)")
            #expect(counts.xctest >= packages.count, "\(counts)")
            #expect(counts.swiftTesting >= packages.count, "\(counts)")
        }

        /// The modules the integration package declares with `golden(...)`.
        static func declaredPackages() throws -> [String] {
            let manifest = try String(
                contentsOf: TestPaths.integrationPackage.appendingPathComponent("Package.swift"),
                encoding: .utf8)
            return manifest.matches(of: /golden\("(\w+)"/).map { String($0.output.1) }
        }
    }
}
