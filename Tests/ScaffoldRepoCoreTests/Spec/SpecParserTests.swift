import Testing

@testable import ScaffoldRepoCore

@Suite struct SpecParserTests {
    @Test func parsesEveryBaseTypeAndOptionals() throws {
        let tokens =
            BaseType.allCases.map { "f\($0.rawValue):\($0.rawValue)" } + ["note:String?", "id:Int"]

        let spec = try SpecParser.parse(modelName: "Thing", fieldTokens: tokens)

        #expect(
            spec.fields.map(\.type.swiftSpelling) == BaseType.allCases.map(\.rawValue) + [
                "String?", "Int",
            ])
        #expect(spec.idField == Field(name: "id", type: .base(.int)))
    }

    @Test func typeNamesMatchInAnyCaseAndAFieldWithoutTypeIsAString() throws {
        let spec = try SpecParser.parse(
            modelName: "note", fieldTokens: ["id:uuid", "title", "due:date?"])

        #expect(spec.typeName == "Note")
        #expect(spec.fields.map(\.type.swiftSpelling) == ["UUID", "String", "Date?"])
    }

    @Test func aMissingIDShowsHowToAddOne() {
        #expect(
            throws: UsageError(
                "Question has no id field; add one, for example: scaffold-repo Question id:UUID text:String"
            )
        ) {
            try SpecParser.parse(modelName: "Question", fieldTokens: ["text:String"])
        }
    }

    @Test(arguments: [
        (["id:Strng"], "unknown type 'Strng' in 'id:Strng'. Did you mean String?"),
        (["id:String", "score:Dubble"], "Did you mean"),
        (["id:Double"], "'id:Double' cannot be an id; use one of id:String, id:UUID, id:Int"),
        (["id:String?"], "cannot be an id"),
        (["id:String", "text:"], "'text:' has no type after ':'"),
        (["id:String", ":String"], "':String' has no field name"),
        (["id:String", "2nd:String"], "field name '2nd'"),
        (["id:String", "my-field:String"], "field name 'my-field'"),
        (["id:String", "class:String"], "is a Swift keyword"),
        (["id:String", "text", "text:Int"], "field 'text' is given twice"),
        (["id:String", "x:Int??"], "optional twice"),
    ])
    func badFieldsAreRefusedWithTheToken(tokens: [String], message: String) {
        #expect {
            try SpecParser.parse(modelName: "Question", fieldTokens: tokens)
        } throws: { error in
            (error as? UsageError)?.message.contains(message) == true
        }
    }

    @Test func anIDInOtherCaseIsPointedOut() {
        #expect(
            throws: UsageError(
                "Question has no id field; 'ID' is not 'id': write it in lower case, id:Int")
        ) {
            try SpecParser.parse(modelName: "Question", fieldTokens: ["ID:Int"])
        }
    }

    @Test(arguments: ["Data", "URL", "error", "String", "Codable", "FileManager", "Observable"])
    func modelNamesThatWouldHideATypeTheCodeUsesAreRefused(name: String) {
        #expect {
            try SpecParser.parse(modelName: name, fieldTokens: ["id:String"])
        } throws: { error in
            (error as? UsageError)?.message.contains("is a type the generated code uses") == true
        }
    }

    @Test func hashValueIsRefusedAsAFieldName() {
        #expect {
            try SpecParser.parse(
                modelName: "Question", fieldTokens: ["id:String", "hashValue:Int"])
        } throws: { error in
            (error as? UsageError)?.message.contains("clashes with a member every model has")
                == true
        }
    }

    @Test(arguments: ["", "9Lives", "My Model", "../Evil", "a/b", "self"])
    func badModelNamesAreRefused(name: String) {
        #expect(throws: UsageError.self) {
            try SpecParser.parse(modelName: name, fieldTokens: ["id:String"])
        }
    }
}
