import Foundation
import Testing

/// The host settings matrix: Tests/HostSettings/<target> is a small app package whose target
/// has one group of settings an app can have, with a journal and a snapshot store generated
/// into it. Tests/Integration/Package.swift builds each with the same settings; these tests
/// keep the two declarations equal, so the matrix that `swift test` runs is the one the folders
/// show. (That each folder is what the generator makes is checked by regen --check, in
/// RegenerationTests.)
@Suite struct HostSettingsTests {
    static let root = TestPaths.repositoryRoot.appendingPathComponent("Tests/HostSettings")

    static let targets: [String] =
        ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).sorted()

    /// The settings a manifest text gives, in order: `.defaultIsolation(…)`,
    /// `.enableUpcomingFeature("…")` and `.swiftLanguageMode(…)`.
    static func settings(in text: Substring) -> [String] {
        let pattern = /\.(defaultIsolation|enableUpcomingFeature|swiftLanguageMode)\([^)]*\)/
        return text.matches(of: pattern).map { String($0.output.0) }
    }

    @Test func theMatrixHasItsFourConfigurations() {
        #expect(
            Self.targets == ["MainActorByDefault", "Swift5Mode", "Swift6Defaults", "Swift7Imports"])
    }

    @Test(arguments: targets)
    func theIntegrationPackageBuildsTheFolderWithTheFoldersSettings(target: String) throws {
        let folderManifest = try String(
            contentsOf: Self.root.appendingPathComponent("\(target)/Package.swift"),
            encoding: .utf8)
        let integrationManifest = try String(
            contentsOf: TestPaths.integrationPackage.appendingPathComponent("Package.swift"),
            encoding: .utf8)
        let fix = "add (\"\(target)\", [settings]) to Tests/Integration/Package.swift"
        let start = try #require(integrationManifest.range(of: "\"\(target)\","), "\(fix)")
        // Up to the next configuration's comment, or the end of the list.
        let rest = integrationManifest[start.upperBound...]
        let end = rest.range(of: "// (")?.lowerBound ?? rest.range(of: "return")!.lowerBound

        #expect(Self.settings(in: rest[..<end]) == Self.settings(in: folderManifest[...]))
        #expect(folderManifest.contains("-warnings-as-errors"))
    }
}
