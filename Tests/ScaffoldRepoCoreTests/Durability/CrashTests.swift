import BenchJournal
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension SlowSuites {
    /// Kills a process that is saving to the generated journal store with SIGKILL at random
    /// moments, and checks that the store, reopened, holds every save that had returned.
    @Suite struct CrashTests {
        /// Set `CRASH_TEST_SEED` to replay a failing run.
        static let seed =
            ProcessInfo.processInfo.environment["CRASH_TEST_SEED"].flatMap { UInt64($0) }
            ?? 20_261_130

        @Test func everyReturnedSaveSurvivesSIGKILL() async throws {
            let folder = try TestPaths.makeTemporaryFolder()
            defer { TestPaths.removeTemporaryFolder(folder) }
            let child = try TestPaths.builtExecutable("StoreCrashChild")
            var random = SplitMix64(seed: Self.seed)
            var acknowledged: [String] = []
            for round in 0..<24 {
                let process = Process()
                process.executableURL = child
                process.arguments = [folder.path, String(round * 1_000_000)]
                let output = Pipe()
                process.standardOutput = output
                try process.run()
                let delay = 30 + random.next() % 300
                try await Task.sleep(for: .milliseconds(delay))
                kill(process.processIdentifier, SIGKILL)
                let printed = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                acknowledged += String(decoding: printed, as: UTF8.self).split(separator: "\n").map(
                    String.init)

                let repository = try EntryRepository(directory: folder)
                for id in acknowledged where await repository.find(by: id) == nil {
                    Issue.record(
                        "round \(round): \(id) was acknowledged but is missing (seed \(Self.seed))")
                }
                await repository.close()
            }
            #expect(
                acknowledged.count > 24, "the child saved almost nothing; the test proves little")
        }

        @Test func anotherProcessWritingTheFolderLocksThisOneOut() async throws {
            let folder = try TestPaths.makeTemporaryFolder()
            defer { TestPaths.removeTemporaryFolder(folder) }
            let process = Process()
            process.executableURL = try TestPaths.builtExecutable("StoreCrashChild")
            process.arguments = [folder.path, "0"]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            // Its first acknowledged save means it has the folder open.
            _ = output.fileHandleForReading.availableData

            #expect {
                try EntryRepository(directory: folder)
            } throws: { error in
                guard case .locked = error as? EntryRepositoryError else { return false }
                return true
            }

            kill(process.processIdentifier, SIGKILL)
            _ = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(throws: Never.self) { try EntryRepository(directory: folder) }
        }
    }
}
