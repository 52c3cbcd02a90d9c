import Foundation

/// Locations the tests read: the repository's own folders, and fresh temporary folders.
enum TestPaths {
    /// The root of this repository (the folder with Package.swift and Templates), also when
    /// the integration package compiles this file through its link.
    static let repositoryRoot: URL = {
        var url = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        while !["Package.swift", "Templates"].allSatisfy({
            FileManager.default.fileExists(atPath: url.appendingPathComponent($0).path)
        }) {
            url.deleteLastPathComponent()
        }
        return url
    }()

    /// The integration package, which compiles and tests every golden, example and
    /// host-settings package (`Tests/Integration/Package.swift`).
    static let integrationPackage = repositoryRoot.appendingPathComponent("Tests/Integration")

    /// An executable of this package that `swift test` built next to the test bundle.
    static func builtExecutable(_ name: String) throws -> URL {
        var folder = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: name])
    }

    /// Makes `folder` an app's package for `--into`: `Sources/AppCore`, and a Package.swift
    /// that holds `manifest`.
    static func makeAppPackage(
        in folder: URL,
        manifest: String = "// swift-tools-version: 6.1\nimport PackageDescription\n"
    ) throws {
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Sources/AppCore"), withIntermediateDirectories: true)
        try Data(manifest.utf8).write(to: folder.appendingPathComponent("Package.swift"))
    }

    /// A new empty folder; remove it with `removeTemporaryFolder`.
    static func makeTemporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("scaffold-repo-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.resolvingSymlinksInPath()
    }

    static func removeTemporaryFolder(_ url: URL) {
        try? FileManager.default.removeItem(at: url)
    }

    /// Every regular file below `root`, as sorted relative paths, skipping build folders.
    static func files(below root: URL) throws -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return [] }
        var paths: [String] = []
        while let path = enumerator.nextObject() as? String {
            if path.hasPrefix(".build") || path.hasPrefix(".swiftpm") {
                enumerator.skipDescendants()
                continue
            }
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(
                atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory)
            if exists, !isDirectory.boolValue { paths.append(path) }
        }
        return paths.sorted()
    }

    static func fileSize(_ url: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int) ?? 0
    }

    /// A file's text, or nil when it does not exist.
    /// A manifest's text as an earlier release wrote it, without each record's checksum: a
    /// test that edits a record to stand for such a release's removes them too, since an edited
    /// record with its checksum is refused as edited by hand.
    static func withoutChecksums(_ manifest: String) -> String {
        manifest.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.contains("\"checksum\" : ") }.joined(separator: "\n")
    }

    static func text(_ url: URL) -> String? {
        FileManager.default.contents(atPath: url.path).flatMap { String(data: $0, encoding: .utf8) }
    }
}
