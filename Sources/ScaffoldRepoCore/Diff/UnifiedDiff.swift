/// A line-based unified diff (as `diff -u` prints it), for showing how files differ.
public enum UnifiedDiff {
    /// The diff from `old` to `new`, with `context` unchanged lines around each change; empty
    /// when the texts are equal. Texts and lines compare by their bytes, as the file hashes do,
    /// not as Swift compares Strings: "é" as one scalar and as "e" and an accent differ.
    public static func make(
        old: String, new: String, oldName: String, newName: String, context: Int = 3
    ) -> String {
        guard !old.utf8.elementsEqual(new.utf8) else { return "" }
        let oldLines = lines(old)
        let newLines = lines(new)
        let edits = script(oldLines, newLines)
        var output = "--- \(oldName)\n+++ \(newName)\n"
        for hunk in hunks(edits, context: context) {
            output += hunk
        }
        return output
    }

    private enum Edit: Equatable {
        case same(String)
        case removed(String)
        case added(String)

        var isSame: Bool {
            if case .same = self { return true }
            return false
        }

        var isAdded: Bool {
            if case .added = self { return true }
            return false
        }

        var isRemoved: Bool {
            if case .removed = self { return true }
            return false
        }
    }

    /// Splits text into lines at each `\n` byte (a `\r` before it stays in the line, as `diff`
    /// keeps it); a last line without a newline is marked the way `diff` marks it.
    private static func lines(_ text: String) -> [String] {
        var result = text.utf8.split(
            separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false
        )
        .map { String(decoding: $0, as: UTF8.self) }
        if result.last == "" {
            result.removeLast()
        } else if !result.isEmpty {
            result[result.count - 1] += "\n\\ No newline at end of file"
        }
        return result
    }

    /// The shortest edit script, from the table of longest common subsequences.
    private static func script(_ old: [String], _ new: [String]) -> [Edit] {
        let (oldBytes, newBytes) = (old.map { Array($0.utf8) }, new.map { Array($0.utf8) })
        var table = Array(
            repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                table[i][j] =
                    oldBytes[i] == newBytes[j]
                    ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var edits: [Edit] = []
        var i = 0
        var j = 0
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, oldBytes[i] == newBytes[j] {
                edits.append(.same(old[i]))
                i += 1
                j += 1
            } else if i < old.count, j == new.count || table[i + 1][j] >= table[i][j + 1] {
                edits.append(.removed(old[i]))
                i += 1
            } else {
                edits.append(.added(new[j]))
                j += 1
            }
        }
        return edits
    }

    /// Groups the edits into `@@` hunks with `context` lines of context.
    private static func hunks(_ edits: [Edit], context: Int) -> [String] {
        let changed = edits.indices.filter { !edits[$0].isSame }
        var ranges: [ClosedRange<Int>] = []
        for index in changed {
            let range = max(0, index - context)...min(edits.count - 1, index + context)
            if let last = ranges.last, range.lowerBound <= last.upperBound + 1 {
                ranges[ranges.count - 1] = last.lowerBound...range.upperBound
            } else {
                ranges.append(range)
            }
        }
        return ranges.map { range in
            let before = edits[..<range.lowerBound]
            let oldStart = before.filter { !$0.isAdded }.count + 1
            let newStart = before.filter { !$0.isRemoved }.count + 1
            let body = edits[range]
            let oldCount = body.filter { !$0.isAdded }.count
            let newCount = body.filter { !$0.isRemoved }.count
            var text = "@@ -\(position(oldStart, oldCount)) +\(position(newStart, newCount)) @@\n"
            for edit in body {
                switch edit {
                case .same(let line): text += " \(line)\n"
                case .removed(let line): text += "-\(line)\n"
                case .added(let line): text += "+\(line)\n"
                }
            }
            return text
        }
    }

    /// `start,count` as `diff -u` writes it: an empty side starts one line earlier.
    private static func position(_ start: Int, _ count: Int) -> String {
        count == 0 ? "\(start - 1),0" : "\(start),\(count)"
    }
}
