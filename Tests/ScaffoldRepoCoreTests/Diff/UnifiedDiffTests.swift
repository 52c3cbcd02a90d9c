import Foundation
import Testing

@testable import ScaffoldRepoCore

@Suite struct UnifiedDiffTests {
    @Test func equalTextsHaveNoDiff() {
        #expect(UnifiedDiff.make(old: "a\nb\n", new: "a\nb\n", oldName: "x", newName: "y") == "")
    }

    @Test func aChangedLineShowsWithContext() {
        let old = (1...10).map { "line \($0)\n" }.joined()
        let new = old.replacingOccurrences(of: "line 5\n", with: "line five\n")

        let diff = UnifiedDiff.make(old: old, new: new, oldName: "a/f", newName: "b/f")

        #expect(
            diff == """
                --- a/f
                +++ b/f
                @@ -2,7 +2,7 @@
                 line 2
                 line 3
                 line 4
                -line 5
                +line five
                 line 6
                 line 7
                 line 8

                """)
    }

    @Test func addedFileAndMissingFinalNewline() {
        #expect(
            UnifiedDiff.make(old: "", new: "a\n", oldName: "x", newName: "y")
                == "--- x\n+++ y\n@@ -0,0 +1,1 @@\n+a\n")
        #expect(
            UnifiedDiff.make(old: "a", new: "a\n", oldName: "x", newName: "y")
                == "--- x\n+++ y\n@@ -1,1 +1,1 @@\n-a\n\\ No newline at end of file\n+a\n")
    }

    @Test func distantChangesMakeSeparateHunks() {
        let old = (1...20).map { "\($0)\n" }.joined()
        let new = old.replacingOccurrences(of: "\n2\n", with: "\ntwo\n").replacingOccurrences(
            of: "\n19\n", with: "\nnineteen\n")

        let diff = UnifiedDiff.make(old: old, new: new, oldName: "x", newName: "y")

        #expect(diff.components(separatedBy: "@@ -").count - 1 == 2)
    }

    /// A file checked out with Windows line endings: each line ends in `\r\n`, which Swift reads
    /// as one character, and the diff keeps the `\r` in the line as `diff -u` does.
    @Test func linesEndingInCarriageReturnsAreLinesOfTheDiff() {
        let diff = UnifiedDiff.make(old: "a\r\nb\r\n", new: "a\nb\n", oldName: "x", newName: "y")

        #expect(
            Array(diff.utf8)
                == Array("--- x\n+++ y\n@@ -1,2 +1,2 @@\n-a\r\n-b\r\n+a\n+b\n".utf8))
    }

    /// Texts that Swift calls equal but whose bytes differ ("é" as one scalar, and as "e" and a
    /// combining accent) differ in the diff too, as their hashes do.
    @Test func linesDifferingOnlyInTheirUnicodeFormDiffer() {
        let diff = UnifiedDiff.make(
            old: "x\n\u{E9}\n", new: "x\ne\u{301}\n", oldName: "x", newName: "y")

        #expect(
            Array(diff.utf8)
                == Array("--- x\n+++ y\n@@ -1,2 +1,2 @@\n x\n-\u{E9}\n+e\u{301}\n".utf8))
    }
}
