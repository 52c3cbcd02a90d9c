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
        ("a\n{{> Missing}}", "test.tmpl:2: no partial 'Missing'; add Missing.partial.tmpl"),
        (
            "{{> a.b}}",
            "test.tmpl:1: '{{> a.b}}' must be '{{> name}}', a partial's name in letters and digits"
        ),
    ])
    func errorsNameTheTemplateAndLine(text: String, message: String) {
        #expect {
            try render(text, ["flag": true, "fields": .list([]), "name": "n"])
        } throws: { error in
            (error as? TemplateError)?.description == message
        }
    }

    @Test func aPartialRendersInPlaceWithTheNamesInScope() throws {
        let partials = [
            "Field": try Template(name: "Field.partial.tmpl", text: "    var {{name}}: {{type}}\n")
        ]
        let template = try Template(
            name: "test.tmpl",
            text: """
                struct {{model}} {
                {{#each fields}}
                    {{> Field}}
                {{/each}}
                }
                """)

        let text = try template.render(
            [
                "model": "Q", "type": "Int",
                "fields": .list([.object(["name": "a"]), .object(["name": "b", "type": "String"])]),
            ],
            partials: { partials[$0] })

        #expect(text == "struct Q {\n    var a: Int\n    var b: String\n}")
    }

    @Test func aPartialThatIncludesItselfIsAnErrorNotAHang() throws {
        let loop = try Template(name: "Loop.partial.tmpl", text: "x{{> Loop}}")

        #expect {
            try Template(name: "test.tmpl", text: "{{> Loop}}").render([:]) { _ in loop }
        } throws: { error in
            (error as? TemplateError)?.description
                == "Loop.partial.tmpl:1: partial 'Loop' includes itself, directly or not"
        }
    }

    @Test func anErrorInsideAPartialNamesThePartialAndItsLine() throws {
        let partial = try Template(name: "Body.partial.tmpl", text: "ok\n{{missing}}")

        #expect {
            try Template(name: "test.tmpl", text: "{{> Body}}").render([:]) { _ in partial }
        } throws: { error in
            (error as? TemplateError)?.description == "Body.partial.tmpl:2: unknown name 'missing'"
        }
    }
}
