import Foundation
import Testing

@testable import ScaffoldRepoCore

/// A model may be named like a type of the Testing module (`Tag`, `Trait`, `Attachment`, …):
/// the Swift Testing suite imports both modules, so the model's bare name in its code would be
/// ambiguous and the suite would not compile. The suites reach the model through their support
/// type instead; these tests keep the bare name out of their code.
@Suite struct TestingNamesTests {
    @Test(arguments: [Storage.journal, .snapshot, .sqlite])
    func theSwiftTestingSuiteNeverNamesTheModelByItself(storage: Storage) throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        // Defaults, an enum and a frozen version (but with the snapshot storage) reach every
        // scenario that names types.
        let model = [
            "Tag", "id:UUID", "label", "kind:enum(red,blue)=red", "--storage", storage.rawValue,
        ]
        #expect(ScaffoldRepo.run(model, currentDirectory: folder).exitCode == 0)
        // The snapshot storage, for teaching, keeps one schema version.
        let evolved = ScaffoldRepo.run(
            model + (storage == .snapshot ? ["rank:Int=0"] : ["rank:Int", "--migrate"]),
            currentDirectory: folder)
        #expect(evolved.exitCode == 0, "\(evolved.standardError)")

        let suite = try #require(
            TestPaths.text(
                folder.appendingPathComponent(
                    "TagStore/Tests/TagStoreTests/TagRepositoryTests.swift")))

        #expect(suite.contains("import Testing"))
        #expect(
            suite.contains("testJSONWrittenBeforeTheDefaultedFieldsExistedDecodesToTheDefaults"))
        let naming = Self.linesNaming("Tag", inCodeOf: suite)
        #expect(naming.isEmpty, "\(naming.joined(separator: "\n"))")
    }

    @Test func aNameIsFoundInCodeButNotInCommentsStringsOrLongerNames() {
        let code = """
            let a = Tag(id: 1) // a Tag
            let b = "Tag \\"Tag\\" Tag" + TagRepository.name + x.Tag
            /// Tag
            decode(Tag.self)
            """
        #expect(
            Self.linesNaming("Tag", inCodeOf: code) == [
                "let a = Tag(id: 1) // a Tag", "decode(Tag.self)",
            ])
    }

    /// The lines of `source` whose code (less comments and string literals) has `name` as a
    /// whole identifier, not as a member (`x.Tag`) or part of a longer name (`TagRepository`).
    static func linesNaming(_ name: String, inCodeOf source: String) -> [String] {
        source.split(separator: "\n").filter { line in
            var code = ""
            var inString = false
            var isEscaped = false
            for character in line {
                if inString && !isEscaped && character == "\\" {
                    isEscaped = true
                    continue
                }
                if character == "\"" && !isEscaped {
                    inString.toggle()
                } else if !inString {
                    code.append(character)
                }
                isEscaped = false
            }
            if let comment = code.range(of: "//") { code = String(code[..<comment.lowerBound]) }
            return WholeWord.occurs(name, in: code[...], asMember: false)
        }.map(String.init)
    }
}
