import Foundation
import Testing

@testable import ScaffoldRepoCore

/// `destroy`'s plan, on its own: a file still as generated is deleted, an edited one kept and
/// still recorded, with the shared engine files beside it, which it uses; `force` deletes all.
@Suite struct RemovalPlannerTests {
    @Test func anEditedFileIsKeptAndRecordedAndTheRestDeleted() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        _ = ScaffoldRepo.run(["Q", "id:Int", "title"], currentDirectory: folder)
        let root = folder.appendingPathComponent("QStore")
        let edited = "Sources/QStore/Q.swift"
        try Data("// mine\n".utf8).write(to: root.appendingPathComponent(edited))
        let manifest = try #require(try Manifest.load(root: root))
        let entry = try #require(manifest.model(named: "Q"))

        let plan = RemovalPlanner.plan(
            removing: entry, from: manifest, root: root, displayRoot: "QStore", force: false)
        let forced = RemovalPlanner.plan(
            removing: entry, from: manifest, root: root, displayRoot: "QStore", force: true)

        let statuses = Dictionary(
            uniqueKeysWithValues: plan.changes.map { ($0.file.path, $0.status) })
        // The shared engine files beside it, and the package's Package.swift and .gitignore.
        let besideIt = Set(
            entry.files.keys.filter {
                $0.hasPrefix("Sources/QStore/") && Names.isShared($0) || !$0.contains("/")
            })
        #expect(!besideIt.isEmpty)
        #expect(statuses.count == entry.files.count)
        for (path, status) in statuses {
            let expected: ChangeStatus =
                path == edited ? .modified : besideIt.contains(path) ? .shared : .delete
            #expect(status == expected, "\(path)")
        }
        #expect(Set(plan.kept.keys) == besideIt.union([edited]))
        #expect(forced.changes.allSatisfy { $0.status == .delete })
        #expect(forced.kept.isEmpty)
    }
}
