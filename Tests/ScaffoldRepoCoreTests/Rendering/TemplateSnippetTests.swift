import Foundation
import Testing

@testable import ScaffoldRepoCore

/// One fragment of a template, rendered for one field, where a whole-package golden would be too
/// much: how the model's decoder reads a field that has a default, a former name, or both.
/// Each case is the text the generated `init(from:)` holds for that field.
@Suite struct TemplateSnippetTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let field: String
        let rename: String?
        let expected: String
        var testDescription: String { field + (rename.map { " --rename \($0)" } ?? "") }
    }

    static let cases: [Case] = [
        // A renamed field is written under both keys with their mark: beside the mark, the
        // former key is read (a build from before the rename changed it); else the new key,
        // then the former one.
        Case(
            field: "headline:String", rename: "title=headline",
            expected: """
                        self.headline =
                            try marks.contains(.title) && former.contains(.title)
                            ? former.decode(String.self, forKey: .title)
                            : container.decodeIfPresent(String.self, forKey: .headline)
                                ?? former.decode(String.self, forKey: .title)
                """),
        // A renamed reference is written under its new key only: no mark is read.
        Case(
            field: "shelf:references(Shelf)", rename: "holder=shelf",
            expected: """
                        self.shelfID =
                            try container.decodeIfPresent(Shelf.ID.self, forKey: .shelfID)
                            ?? former.decode(Shelf.ID.self, forKey: .holderID)
                """),
        // An optional with a default writes nil as null: a key that is there is read as it is.
        Case(
            field: "memo:String?=\"x\"", rename: "note=memo",
            expected: """
                        self.memo =
                            try container.contains(.memo)
                            && !(marks.contains(.note) && former.contains(.note))
                            ? container.decodeIfPresent(String.self, forKey: .memo)
                            : former.contains(.note)
                                ? former.decodeIfPresent(String.self, forKey: .note)
                                : "x"
                """),
        Case(
            field: "status:enum(draft,done)=draft", rename: nil,
            expected: """
                        self.status =
                            try container.contains(.status)
                            ? container.decode(Status.self, forKey: .status)
                            : .draft
                """),
        Case(
            field: "pages:Int?", rename: nil,
            expected: """
                        self.pages = try container.decodeIfPresent(Int.self, forKey: .pages)
                """),
        // A renamed field with a default: the new key, the former one, then the default.
        Case(
            field: "count:Int=0", rename: "n=count",
            expected: """
                        self.count =
                            try marks.contains(.n) && former.contains(.n)
                            ? former.decodeIfPresent(Int.self, forKey: .n) ?? 0
                            : container.decodeIfPresent(Int.self, forKey: .count)
                                ?? former.decodeIfPresent(Int.self, forKey: .n) ?? 0
                """),
        // A renamed optional: nil only when neither key is there.
        Case(
            field: "note:String?", rename: "memo=note",
            expected: """
                        self.note =
                            try marks.contains(.memo) && former.contains(.memo)
                            ? former.decodeIfPresent(String.self, forKey: .memo)
                            : container.decodeIfPresent(String.self, forKey: .note)
                                ?? former.decodeIfPresent(String.self, forKey: .memo)
                """),
        Case(
            field: "tags:[String]=[]", rename: nil,
            expected: """
                        self.tags =
                            try container.contains(.tags)
                            ? container.decode([String].self, forKey: .tags)
                            : []
                """),
    ]

    /// The lines of `init(from:)` that set `field`'s property, in `Book id:UUID <field>` with a
    /// defaulted `kind` beside it, so the model always decodes by hand.
    static func decodingLines(field: String, rename: String?) throws -> String {
        var spec = try SpecParser.parse(
            modelName: "Book", fieldTokens: ["id:UUID", field, "kind:enum(a,b)=a"])
        if let rename { try SpecParser.applyRenames(rename, to: &spec) }
        let context = RenderContext.make(for: spec, module: "BookStore")
        let text = try TemplateSource().render("Model.swift.tmpl", context)
        let identifier = spec.fields[1].name
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let decoder = try #require(lines.firstIndex { $0.contains("init(from decoder:") })
        let start = try #require(
            lines[decoder...].firstIndex { $0.hasPrefix("        self.\(identifier) =") }, "\(text)"
        )
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("        self.") } ?? lines.count
        return lines[start..<end].joined(separator: "\n")
    }

    @Test(arguments: cases)
    func theDecoderReadsTheFieldAsWritten(_ example: Case) throws {
        let lines = try Self.decodingLines(field: example.field, rename: example.rename)
        #expect(lines == example.expected)
    }
}
