import Foundation
import Testing

@testable import ScaffoldRepoCore

@Suite struct RenderContextTests {
    /// A model with every kind of value: enums, a default, a rename, an earlier version.
    private func richContext() throws -> ModelContext {
        var spec = try SpecParser.parse(
            modelName: "Recipe",
            fieldTokens: ["id:UUID", "name:String", "level:enum(easy,hard)=easy", "tags:[String]"])
        try SpecParser.applyRenames("title=name", to: &spec)
        var history = ModelHistory()
        // Version 1's title carries over (as name); its level, a String, is decided.
        history.freeze(
            try SpecParser.parse(
                modelName: "Recipe", fieldTokens: ["id:UUID", "title:String", "level:String"]))
        return ModelContext(
            spec: spec, module: "RecipeStore", storage: .journal, annotate: true, history: history,
            formerStorages: [.snapshot])
    }

    /// Every property name of `context` and of the contexts it holds, inline ones too.
    private func names(of context: Any) -> Set<String> {
        var names: Set<String> = []
        for child in Mirror(reflecting: context).children {
            guard let label = child.label else { continue }
            names.insert(label)
            switch child.value {
            case let list as [any TemplateContext]:
                for item in list { names.formUnion(self.names(of: item)) }
            case let group as any TemplateContext: names.formUnion(self.names(of: group))
            default: break
            }
        }
        return names
    }

    /// Documentation/templates.md lists every value a template reads, between its
    /// `<!-- template values -->` markers.
    @Test func theTemplatesPageListsEveryTemplateValueAndNoOther() throws {
        let spec = try SpecParser.parse(modelName: "Recipe", fieldTokens: ["id:UUID", "x:Int"])
        let next = try SpecParser.parse(modelName: "Recipe", fieldTokens: ["id:UUID", "y:Int"])
        // y is new and required: a decision, with its comment's lines.
        let migration = MigrationContext(from: 1, old: spec, new: next, model: "Recipe")
        let code = names(of: try richContext()).union(names(of: migration))
            .union(names(of: TestSuiteContext(testAttribute: "")))
        let page = try #require(
            TestPaths.text(
                TestPaths.repositoryRoot.appendingPathComponent("Documentation/templates.md")))
        let start = try #require(page.range(of: "<!-- template values -->"))
        let end = try #require(page.range(of: "<!-- /template values -->"))
        // The names of a list item are the backticked words before each "(Type)".
        let section = page[start.upperBound..<end.lowerBound]
        let documented = Set(
            section.matches(of: /`(\w+)` \(/).map { String($0.output.1) })

        #expect(documented.subtracting(code).isEmpty, "in Documentation/templates.md only")
        #expect(code.subtracting(documented).isEmpty, "in the code only")
    }

    @Test func anInlineContextsNamesAreReadAtTheTopAndListsAsObjects() throws {
        let values = try richContext().templateValues

        #expect(values["shape"] == nil)
        #expect(!"\(values)".contains("is not a template value"))
        guard case .list(let fields) = values["fields"], case .object(let level) = fields[2] else {
            Issue.record("fields is not a list of objects: \(String(describing: values["fields"]))")
            return
        }
        #expect(level["hasDefault"] == .flag(true))
        #expect(level["defaultLiteral"] == .text(".easy"))
        #expect(values["hasFormerNames"] == .flag(true))
        #expect(values["schemaVersion"] == .text("2"))
        guard case .list(let versions) = values["versions"], case .object(let first) = versions[0]
        else {
            Issue.record("versions is not a list of objects")
            return
        }
        #expect(first["name"] == .text("V1"))
        #expect(first["hasDefaults"] == .flag(false), "a version's shape is inline in it")
    }
}
