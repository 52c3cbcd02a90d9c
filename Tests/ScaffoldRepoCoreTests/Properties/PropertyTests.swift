import Foundation
import Testing

@testable import ScaffoldRepoCore

/// Seeded random command lines: every valid one renders and plans; every broken one exits 2
/// with a message and writes nothing (`SlowSuites.RandomPackageBuildTests` compiles a batch).
/// Set `PROPERTY_TEST_SEED` to replay a failure; every failure message names its seed. The fast
/// loop tries the first rounds; `SlowSuites.ManyRoundPropertyTests` tries many more.
@Suite struct PropertyTests {
    static let seed =
        ProcessInfo.processInfo.environment["PROPERTY_TEST_SEED"].flatMap { UInt64($0) } ?? 7_411

    @Test func validSpecsRenderDeterministicallyAndPlanAsCreations() throws {
        try Self.validSpecsRenderDeterministicallyAndPlanAsCreations(rounds: 50)
    }

    @Test func brokenArgumentListsExitTwoWithAMessageAndWriteNothing() throws {
        try Self.brokenArgumentListsExitTwoWithAMessageAndWriteNothing(rounds: 1_000)
    }

    static func validSpecsRenderDeterministicallyAndPlanAsCreations(rounds: Int) throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        var generator = SpecGenerator(random: SplitMix64(seed: Self.seed))
        for round in 0..<rounds {
            let arguments = generator.validArguments()
            let context = "round \(round), seed \(Self.seed): \(arguments)"
            let invocation: Invocation
            do {
                invocation = try InvocationParser.parse(arguments)
            } catch {
                Issue.record("refused a valid spec: \(context): \(error)")
                continue
            }
            guard case .generate(let request, _) = invocation else {
                Issue.record("not a generate command: \(context)")
                continue
            }
            let files = try Renderer.render(request)
            #expect(try Renderer.render(request) == files, "not deterministic: \(context)")
            let changes = try Planner.plan(files, root: folder, displayRoot: "", force: false)
            #expect(changes.allSatisfy { $0.status == .create }, "\(context)")
        }
    }

    static func brokenArgumentListsExitTwoWithAMessageAndWriteNothing(rounds: Int) throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        var generator = SpecGenerator(random: SplitMix64(seed: Self.seed))
        for round in 0..<rounds {
            let arguments = generator.badArguments()
            let result = ScaffoldRepo.run(arguments, currentDirectory: folder)
            let context = "round \(round), seed \(Self.seed): \(arguments)"
            guard result.exitCode == 2, result.standardOutput.isEmpty,
                result.standardError.hasPrefix("error: "), result.standardError.count > 20
            else {
                Issue.record("expected exit 2 and a message: \(context) gave \(result)")
                break
            }
        }
        #expect(
            try TestPaths.files(below: folder).isEmpty, "something was written (seed \(Self.seed))")
    }
}

extension SlowSuites {
    /// ``PropertyTests`` with many more rounds (the first ones are the fast loop's).
    @Suite struct ManyRoundPropertyTests {
        @Test func validSpecsRenderDeterministicallyAndPlanAsCreations() throws {
            try PropertyTests.validSpecsRenderDeterministicallyAndPlanAsCreations(rounds: 250)
        }

        @Test func brokenArgumentListsExitTwoWithAMessageAndWriteNothing() throws {
            try PropertyTests.brokenArgumentListsExitTwoWithAMessageAndWriteNothing(rounds: 10_000)
        }
    }
}
