import Foundation

/// Fits the access level of the generated files' imports to the code beside them. In one module,
/// an `import Foundation` without a level beside an `internal import Foundation` does not compile
/// ("ambiguous implicit access level"), whichever file has which: so a module that the target's
/// own files import with a level below `public` is imported so by the generated files too, and
/// one they import without a level is imported without one by the generated files, where those
/// would say `internal` (the engine's SQLite import).
enum ImportStyle {
    /// How a module's files import other modules: without a level, or with one below `public`.
    struct Levels: Equatable {
        var bare: Set<String> = []
        var belowPublic: Set<String> = []

        mutating func formUnion(_ other: Levels) {
            bare.formUnion(other.bare)
            belowPublic.formUnion(other.belowPublic)
        }
    }

    /// The imports of Swift `text`, outside comments and multi-line strings (`import struct
    /// Foundation.Date` counts as an import of Foundation). A file with neither is read line by
    /// line, only the lines with the word matched: a target of thousands of files is read in a
    /// moment.
    static func levels(of text: String) -> Levels {
        var levels = Levels()
        guard text.contains("import") else { return levels }
        let hasBlocks = text.contains("/*") || text.contains("\"\"\"")
        let lines = hasBlocks ? ClashCheck.codeLines(text).map { Substring($0) } : text.lineSlices
        for line in lines where mayImport(line) {
            let code =
                hasBlocks ? line : line.range(of: "//").map { line[..<$0.lowerBound] } ?? line
            guard let match = code.firstMatch(of: importLine) else { continue }
            let module = String(match.output.3)
            switch match.output.2 {
            case nil: levels.bare.insert(module)
            case "public"?, "open"?: break
            default: levels.belowPublic.insert(module)
            }
        }
        return levels
    }

    /// Whether `line` can be an import: its first character, past spaces, starts `import`, an
    /// attribute or an access level. Bytes: every line of the target's files is asked.
    private static func mayImport(_ line: Substring) -> Bool {
        guard let first = line.utf8.first(where: { $0 != 0x20 && $0 != 0x09 }) else { return false }
        return "@iopf".utf8.contains(first) && line.contains("import")
    }

    /// `text` with each of its import lines at the level `levels` (the target's own files')
    /// calls for; lines inside `#if` keep their indentation.
    static func fitted(_ text: String, to levels: Levels) -> String {
        guard !levels.bare.isEmpty || !levels.belowPublic.isEmpty else { return text }
        var lines = text.lineSlices
        for index in lines.indices {
            // The pattern only on the lines that can match: it is slow, and every generated line
            // passes here.
            guard mayImport(lines[index]),
                let match = lines[index].firstMatch(of: importLine),
                match.output.1.isEmpty, match.output.4.isEmpty
            else { continue }
            let indent = lines[index].prefix { $0 == " " }
            let module = String(match.output.3)
            switch match.output.2 {
            case nil where levels.belowPublic.contains(module):
                lines[index] = "\(indent)internal import \(module)"[...]
            case "internal"?
            where levels.bare.contains(module)
                && !levels.belowPublic.contains(module):
                lines[index] = "\(indent)import \(module)"[...]
            default: break
            }
        }
        return lines.joined(separator: "\n")
    }

    /// An import: its attributes (`@testable `), level, module, and the rest of a scoped import
    /// (`.Date` in `import struct Foundation.Date`).
    private nonisolated(unsafe) static let importLine =
        /^\s*((?:@[\w]+\s+)*)(public|package|internal|fileprivate|private|open)?\s*import\s+(?:(?:struct|class|enum|protocol|typealias|func|let|var)\s+)?([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*$/
}
