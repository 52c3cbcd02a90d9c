import Foundation
import Testing

@testable import ScaffoldRepoCore

/// The note of a run that changes a model's storage lists the public API the app loses, so
/// that code that used it is changed on purpose, not found by the compiler one error at a
/// time. It is written by hand in `PackagePlanner`; these tests hold it to the generated code.
@Suite struct StorageChangeNoteTests {
    /// Every move a model can make (sqlite is never left, and the snapshot storage imports
    /// nothing, so it is never moved to).
    static let moves: [(from: Storage, to: Storage)] = [
        (.snapshot, .journal), (.journal, .sqlite), (.snapshot, .sqlite),
    ]

    @Test(arguments: 0..<moves.count)
    func theNoteNamesEveryPublicMemberThatTheMoveTakesAway(move: Int) throws {
        let (from, to) = Self.moves[move]
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        let model = ["Note", "id:UUID", "title:String", "--storage"]
        #expect(ScaffoldRepo.run(model + [from.rawValue], currentDirectory: folder).exitCode == 0)
        let sources = folder.appendingPathComponent("NoteStore/Sources/NoteStore")
        let before = try Self.publicMembers(in: sources)

        let moved = ScaffoldRepo.run(model + [to.rawValue], currentDirectory: folder)

        #expect(moved.exitCode == 0, "\(moved.standardError)")
        let note = try #require(
            moved.standardOutput.split(separator: "\n").first { $0.hasPrefix("note: Note moves") })
        let gone = before.subtracting(try Self.publicMembers(in: sources))
        #expect(!gone.isEmpty)
        for member in gone.sorted() {
            let name = member.split(separator: ".", maxSplits: 1).last.map(String.init) ?? member
            #expect(Self.names(note, name), "\(from) to \(to): the note omits \(member)")
        }
    }

    @Test func aMemberIsFoundAsTheNoteSpellsIt() {
        let note = "compact(), compactionFloor and init(readingFrom:) go"
        #expect(Self.names(note, "compact()"))
        #expect(Self.names(note, "compactionFloor"))
        #expect(Self.names(note, "init(readingFrom:)"))
        #expect(!Self.names(note, "refresh()"))
        #expect(!Self.names(note, "compaction"))
        #expect(!Self.names(note, "Floor"))
        #expect(!Self.names(note, "init(directory:)"))
    }

    /// Whether `note` names `member` as `publicMembers` spells it, as a whole word: a function
    /// or an initializer with its labels (`compact()`, `init(readingFrom:)`), anything else by
    /// its name.
    static func names(_ note: Substring, _ member: String) -> Bool {
        WholeWord.occurs(member, in: note)
    }

    static func names(_ note: String, _ member: String) -> Bool { names(note[...], member) }

    /// The public declarations of the Swift files in `folder`, each as `Type.member` (or the
    /// type's own name at the top level), a member spelled `func name`, `init(label:…)`, or the
    /// name of a property, nested type or case.
    static func publicMembers(in folder: URL) throws -> Set<String> {
        let modifiers: Set<Substring> = [
            "public", "nonisolated", "static", "final", "convenience", "mutating", "private(set)",
        ]
        let types: Set<Substring> = ["struct", "class", "actor", "enum", "extension", "protocol"]
        var members: Set<String> = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path)
        where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            var type = ""
            for line in text.split(separator: "\n") {
                let indent = line.prefix { $0 == " " }.count
                var words = line.split(separator: " ").drop { $0.hasPrefix("@") }
                let isPublic = words.first == "public"
                while let word = words.first, modifiers.contains(word) { words.removeFirst() }
                guard let kind = words.popFirst() else { continue }
                let name = words.first?.prefix { $0.isLetter || $0.isNumber || $0 == "_" } ?? ""
                if indent == 0, types.contains(kind) { type = String(name) }
                guard isPublic, indent <= 4 else { continue }
                let member =
                    kind.hasPrefix("init(")
                    ? signature("init", text, from: line)
                    : kind == "func" && !name.isEmpty
                        ? signature(String(name), text, from: line) : String(name)
                guard !member.isEmpty else { continue }
                members.insert(indent == 0 ? member : "\(type).\(member)")
            }
        }
        return members
    }

    /// `name(label:…)` for the function or initializer declared on `line` of `text`, whose
    /// parameters may go on over several lines.
    static func signature(_ name: String, _ text: String, from line: Substring) -> String {
        let start = text.range(of: line)!.lowerBound
        let open = text[start...].firstIndex(of: "(")!
        var depth = 0
        var parameters = ""
        for character in text[open...] {
            if character == "(" || character == "[" { depth += 1 }
            if character == ")" || character == "]" { depth -= 1 }
            if depth == 0 { break }
            parameters.append(depth == 1 && character == "," ? "\u{0}" : character)
        }
        let labels = parameters.dropFirst().split(separator: "\u{0}").map { parameter in
            parameter.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ":" }).first ?? ""
        }
        return name + "(" + labels.map { "\($0):" }.joined() + ")"
    }
}
