import Testing

@testable import ScaffoldRepoCore

@Suite struct LiteralsTests {
    @Test(arguments: [
        (DefaultValue.string("say \"hi\"\\\n"), FieldType.base(.string), #""say \"hi\"\\\n""#),
        (.number("9.99"), .base(.decimal), "Decimal(sign: .plus, exponent: -2, significand: 999)"),
        (.number("-5"), .base(.decimal), "Decimal(sign: .minus, exponent: 0, significand: 5)"),
        (.number("0.0"), .base(.date), "Date(timeIntervalSince1970: 0.0)"),
        (.emptyCollection, .dictionary(.base(.int)), "[:]"),
        (.emptyCollection, .optional(.array(.base(.int))), "[]"),
        (.enumCase("default"), .enumeration(name: "Kind", cases: ["default"]), ".`default`"),
        // An optional enum's case `none` is not Optional's nil.
        (
            .enumCase("none"), .optional(.enumeration(name: "S", cases: ["none", "a"])),
            ".some(.none)"
        ),
        (.enumCase("none"), .enumeration(name: "S", cases: ["none", "a"]), ".none"),
        (.none, .optional(.base(.int)), "nil"),
        (.parsed("https://example.com"), .base(.url), #"URL(string: "https://example.com")!"#),
        (.parsed(""), .base(.data), "Data()"),
    ])
    func defaultsBecomeSwiftSource(value: DefaultValue, type: FieldType, swift: String) {
        #expect(Literals.swift(value, type: type) == swift)
    }
}
