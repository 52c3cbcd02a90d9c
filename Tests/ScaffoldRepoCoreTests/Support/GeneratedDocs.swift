import Foundation
import Testing

/// Lines of the documentation pages that come from the generator itself (the list of field
/// types, a message as it is printed): a test compares each with what the generator gives, and
/// `UPDATE_GOLDENS=1`, which `.ci/update-generated` sets, rewrites it, so a new field type
/// changes no page by hand.
enum GeneratedDocs {
    /// Whether this run rewrites what is stale (`UPDATE_GOLDENS=1`, never under CI) instead of
    /// failing on it.
    static var isUpdating: Bool {
        ProcessInfo.processInfo.environment["UPDATE_GOLDENS"] == "1"
            && ProcessInfo.processInfo.environment["CI"] == nil
    }

    /// Expects the line of `page` (relative to the repository's root) that starts with `prefix`
    /// to be `expected`; with `UPDATE_GOLDENS=1`, writes `expected` there instead.
    static func expectLine(
        of page: String, startingWith prefix: String, toBe expected: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        // One line that keeps its prefix, so an update can find it again next time.
        try #require(
            expected.hasPrefix(prefix) && !expected.contains(where: \.isNewline),
            "not one line starting with \(prefix): \(expected)", sourceLocation: sourceLocation)
        let url = TestPaths.repositoryRoot.appendingPathComponent(page)
        var lines = try #require(TestPaths.text(url), sourceLocation: sourceLocation)
            .components(separatedBy: "\n")
        let matching = lines.indices.filter { lines[$0].hasPrefix(prefix) }
        try #require(
            matching.count == 1, "\(page) has \(matching.count) lines \(prefix)…, not one",
            sourceLocation: sourceLocation)
        let index = matching[0]
        guard lines[index] != expected else { return }
        guard isUpdating else {
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
