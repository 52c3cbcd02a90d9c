import Foundation
import Testing

extension SlowSuites {
    /// The in-memory repository of each storage, used by a process of its own as a preview or
    /// an app's test would: it follows every change and touches no folder.
    @Suite struct InMemoryTests {
        @Test func anInMemoryRepositoryFollowsEveryChangeAndLeavesEveryFolderEmpty() throws {
            let folder = try TestPaths.makeTemporaryFolder()
            defer { TestPaths.removeTemporaryFolder(folder) }
            let places = ["home", "data", "tmp", "work"].map { folder.appendingPathComponent($0) }
            for place in places {
                try FileManager.default.createDirectory(
                    at: place, withIntermediateDirectories: true)
            }

            let child = try TestProcess.run(
                "HOME=\(places[0].path)",
                [
                    "XDG_DATA_HOME=\(places[1].path)", "TMPDIR=\(places[2].path)",
                    try TestPaths.builtExecutable("StoreMemoryChild").path,
                ],
                in: places[3])

            #expect(child.status == 0, "\(child.output)")
            #expect(child.output == "journal: follows\nsnapshot: follows\nsqlite: follows\n")
            for place in places {
                #expect(
                    try FileManager.default.contentsOfDirectory(atPath: place.path).isEmpty,
                    "\(place.lastPathComponent) is not empty")
            }
        }
    }
}
