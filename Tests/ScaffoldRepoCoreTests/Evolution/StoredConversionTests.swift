import Testing

@testable import ScaffoldRepoCore

/// The conversions a migration writes itself, and the ones it leaves to a person.
@Suite struct StoredConversionTests {
    private func type(_ spelling: String) throws -> FieldType {
        try SpecParser.parse(modelName: "Gauge", fieldTokens: ["id:UUID", "x:\(spelling)"])
            .fields[1].type
    }

    private func migration(_ old: String, _ new: String) throws -> String? {
        StoredConversion.lossless(
            from: try type(old), to: try type(new), field: "x", target: "Gauge.V2"
        )?.migration("self.x")
    }

    @Test(arguments: [
        ("Int", "Int64", "Int64(self.x)"),
        ("Int", "Double", #"try lossless(Double(exactly: self.x), "x", from: self.x)"#),
        ("Int64", "Double", #"try lossless(Double(exactly: self.x), "x", from: self.x)"#),
        ("Int64", "Int", #"try lossless(Int(exactly: self.x), "x", from: self.x)"#),
        ("Float", "Double", "Double(String(self.x)) ?? Double(self.x)"),
        ("Int", "Decimal", "Decimal(self.x)"),
        ("Int64", "Decimal", "Decimal(self.x)"),
        ("Int", "String", "String(self.x)"),
        ("Double", "String", "String(self.x)"),
        ("Bool", "String", "String(self.x)"),
        ("UUID", "String", "self.x.uuidString"),
        ("URL", "String", "self.x.absoluteString"),
        ("enum(a,b)", "String", "self.x.rawValue"),
        ("enum(a,b)", "enum(a,b,c)", #"try lossless(Gauge.V2.X(rawValue: self.x.rawValue), "x")"#),
        ("String", "String?", "self.x"),
        ("Int", "Int64?", "Int64(self.x)"),
        ("Int?", "Int64?", "self.x.map { Int64($0) }"),
        ("[Int]", "[Int64]", "self.x.map { Int64($0) }"),
        (
            "[String:Float]", "[String:Double]",
            "self.x.mapValues { Double(String($0)) ?? Double($0) }"
        ),
        (
            "[Int]?", "[Double]?",
            #"try self.x.map { try $0.map { try lossless(Double(exactly: $0), "x", from: $0) } }"#
        ),
    ])
    func aConversionThatLosesNothingIsWritten(old: String, new: String, expected: String) throws {
        #expect(try migration(old, new) == expected)
    }

    @Test(arguments: [
        ("String", "Int"), ("Double", "Int"), ("Double", "Float"), ("String", "UUID"),
        ("String", "URL"), ("String", "enum(a,b)"), ("enum(a,b)", "enum(a)"), ("Int?", "Int"),
        ("Decimal", "Double"), ("Date", "Double"), ("[String]", "String"),
    ])
    func aConversionThatCanFailOrLoseIsLeftToAPerson(old: String, new: String) throws {
        #expect(try migration(old, new) == nil)
    }

    @Test func aDecisionStartsFromAConversionThatCanFail() throws {
        let hint = { (old: String, new: String) in
            StoredConversion.hint(
                from: try self.type(old), to: try self.type(new), value: "self.x",
                target: "Gauge.V2")
        }

        #expect(try hint("String", "Int") == "Int(self.x) ?? 0")
        #expect(try hint("String", "UUID") == "UUID(uuidString: self.x) ?? UUID()")
        #expect(try hint("Double", "Int") == "Int(exactly: self.x) ?? 0")
        #expect(try hint("Int?", "Int") == "self.x ?? 0")
        #expect(try hint("String?", "Int") == "self.x.flatMap { Int($0) } ?? 0")
        #expect(try hint("enum(a,b)", "enum(a)") == "Gauge.V2.X(rawValue: self.x.rawValue) ?? .a")
        #expect(try hint("Date", "Int") == nil)
    }
}
