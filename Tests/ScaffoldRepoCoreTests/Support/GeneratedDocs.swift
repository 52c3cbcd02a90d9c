import Foundation
import Testing

/// Lines of the documentation pages that come from the generator itself (the list of field
/// types, a message as it is printed): a test compares each with what the generator gives, and
/// `UPDATE_GOLDENS=1`, which `.ci/update-generated` sets, rewrites it, so a new field type
/// changes no page by hand.
enum GeneratedDocs {
    /// Expects the line of `page` (relative to the repository's root) that starts with `prefix`
    /// to be `expected`; with `UPDATE_GOLDENS=1`, writes `expected` there instead.
    static func expectLine(
        of page: String, startingWith prefix: String, toBe expected: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let url = TestPaths.repositoryRoot.appendingPathComponent(page)
        var lines = try #require(TestPaths.text(url), sourceLocation: sourceLocation)
            .components(separatedBy: "\n")
        let index = try #require(
            lines.firstIndex { $0.hasPrefix(prefix) }, "\(page) has no line \(prefix)…",
            sourceLocation: sourceLocation)
        guard lines[index] != expected else { return }
        guard ProcessInfo.processInfo.environment["UPDATE_GOLDENS"] == "1",
            ProcessInfo.processInfo.environment["CI"] == nil
        else {
            #expect(
                lines[index] == expected,
                "\(page) is stale; run .ci/update-generated", sourceLocation: sourceLocation)
            return
        }
        lines[index] = expected
        try Data(lines.joined(separator: "\n").utf8).write(to: url, options: .atomic)
        Issue.record("Updated \(page). Review it with git diff.", sourceLocation: sourceLocation)
    }
}
