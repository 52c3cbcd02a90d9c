import Testing

@testable import ScaffoldRepoCore

@Suite struct TemplateEngineTests {
    private func render(_ text: String, _ context: [String: TemplateValue]) throws -> String {
        try Template(name: "test.tmpl", text: text).render(context)
    }

    @Test func insertsNamesAndDottedPaths() throws {
        let context: [String: TemplateValue] = [
            "model": "Question", "id": .object(["type": "UUID"]),
        ]

        #expect(
            try render("struct {{model}} { let id: {{ id.type }} }", context)
                == "struct Question { let id: UUID }")
    }

    @Test func eachRepeatsWithItemNamesAndFirstLast() throws {
        let fields: TemplateValue = .list([
            .object(["name": "a"]), .object(["name": "b"]), .object(["name": "c"]),
        ])

        let text = try render(
            "({{#each fields}}{{name}}{{#unless isLast}}, {{/unless}}{{/each}})", ["fields": fields]
        )

        #expect(text == "(a, b, c)")
    }

    @Test func standaloneBlockLinesLeaveNoBlankLines() throws {
        let template = """
            struct Q {
                {{! a comment line vanishes }}
            {{#each fields}}
                var {{name}}: Int
            {{/each}}
            {{#if extra}}
                var extra: Int
            {{else}}
                // none
            {{/if}}
            }

            """

        let text = try render(
            template,
            ["fields": .list([.object(["name": "a"]), .object(["name": "b"])]), "extra": false])

        #expect(text == "struct Q {\n    var a: Int\n    var b: Int\n    // none\n}\n")
    }

    @Test func innerNamesShadowOuterOnes() throws {
        let context: [String: TemplateValue] = [
            "name": "outer", "items": .list([.object(["name": "inner"]), .object([:])]),
        ]

        #expect(try render("{{#each items}}{{name}} {{/each}}", context) == "inner outer ")
    }

    @Test(arguments: [
        ("{{missing}}", "test.tmpl:1: unknown name 'missing'"),
        ("a\n{{#each fields}}", "test.tmpl:2: '{{#each}}' is never closed; add '{{/each}}'"),
        ("{{#if flag}}{{/each}}", "test.tmpl:1: '{{/each}}' closes '{{#if}}' from line 1"),
        ("{{/if}}", "test.tmpl:1: '{{/if}}' closes nothing"),
        ("x {{ name", "test.tmpl:1: '{{' is never closed by '}}'"),
        (
            "{{#loop items}}{{/loop}}",
            "test.tmpl:1: '{{#loop items}}' must be '{{#each name}}', '{{#if name}}' or '{{#unless name}}'"
        ),
        ("{{#each flag}}{{/each}}", "test.tmpl:1: '{{#each flag}}' needs a list"),
        ("{{fields}}", "test.tmpl:1: 'fields' is not text and cannot be inserted"),
        ("{{else}}", "test.tmpl:1: '{{else}}' outside '{{#if}}'"),
        ("{{a b}}", "test.tmpl:1: '{{a b}}' is not a name; names are letters, digits, '_' and '.'"),
    ])
    func errorsNameTheTemplateAndLine(text: String, message: String) {
        #expect {
            try render(text, ["flag": true, "fields": .list([]), "name": "n"])
        } throws: { error in
            (error as? TemplateError)?.description == message
        }
    }
}
