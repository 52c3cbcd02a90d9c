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

    @Test func parsesCollectionsEnumsAndCombinations() throws {
        let spec = try SpecParser.parse(
            modelName: "Post",
            fieldTokens: [
                "id:Int", "tags:[String]", "scores:[String:Int]", "notes:[string]?",
                "matrix:[[Double]]",
                "status:enum(draft, published)", "maybe:enum(a,b)?", "lookup:[String:[UUID?]]",
            ])

        #expect(
            spec.fields.map(\.type.swiftSpelling) == [
                "Int", "[String]", "[String: Int]", "[String]?", "[[Double]]", "Status", "Maybe?",
                "[String: [UUID?]]",
            ])
        #expect(spec.fields[5].type == .enumeration(name: "Status", cases: ["draft", "published"]))
    }

    @Test func defaultsAreCheckedAgainstTheirTypes() throws {
        let spec = try SpecParser.parse(
            modelName: "Post",
            fieldTokens: [
                "id:UUID", "title=Untitled", "quoted:String=\"a b\"", "count:Int=-3",
                "ratio:Double=0.5",
                "on:Bool=TRUE", "note:String?=nil", "tags:[String]=[]", "map:[String:Int]=[:]",
                "state:enum(a,b)=b", "when:Date=0", "price:Decimal=9.99",
                // A text that starts with ':' but names no type, and one that does, quoted.
                "face=:)", "label:String=\":Int\"", "icon=:date:", "hint=:hint", "web=:url:",
            ])

        #expect(
            spec.fields.map(\.defaultValue) == [
                nil, .string("Untitled"), .string("a b"), .number("-3"), .number("0.5"),
                .bool(true), DefaultValue.none,
                .emptyCollection, .emptyCollection, .enumCase("b"), .number("0.0"), .number("9.99"),
                .string(":)"), .string(":Int"), .string(":date:"), .string(":hint"),
                .string(":url:"),
            ])
    }

    @Test(arguments: [
        ("blog_post", "BlogPost"), ("blogPost", "BlogPost"), ("BlogPost", "BlogPost"),
        ("url_link", "UrlLink"),
    ])
    func modelNamesInAnyCaseBecomeOneTypeName(given: String, typeName: String) throws {
        #expect(
            try SpecParser.parse(modelName: given, fieldTokens: ["id:Int"]).typeName == typeName)
    }

    @Test func anEnumThatWouldHideATypeIsNamedKind() throws {
        let spec = try SpecParser.parse(
            modelName: "Question", fieldTokens: ["id:Int", "error:enum(a,b)", "question:enum(c)"])

        #expect(spec.fields.map(\.type.swiftSpelling) == ["Int", "ErrorKind", "QuestionKind"])
    }

    /// `iD:enum(a,b)` nested an `enum ID` in the model, which replaced `Identifiable`'s `ID`.
    @Test func anEnumNamedIDIsNamedKind() throws {
        let spec = try SpecParser.parse(modelName: "Note", fieldTokens: ["id:Int", "iD:enum(a,b)"])

        #expect(spec.fields[1].type == .enumeration(name: "IDKind", cases: ["a", "b"]))
    }

    @Test func anEnumNamedLikeAFieldIsNamedKind() throws {
        let spec = try SpecParser.parse(
            modelName: "Post", fieldTokens: ["id:Int", "status:enum(a,b)=a", "Status:String"])

        #expect(spec.fields[1].type == .enumeration(name: "StatusKind", cases: ["a", "b"]))
    }

    /// A command line's default must fit every platform the package builds for; a manifest's
    /// record, read with `SpecParser.parse` alone, keeps generating what it did.
    @Test(arguments: [
        (
            "n:Int=2147483648",
            "default '2147483648' does not fit Int on every platform in 'n:Int=2147483648'; write "
                + "a whole number from -2147483648 to 2147483647 (Int has 32 bits on watchOS), or "
                + "make the field Int64"
        ),
        ("f:Float?=" + String(repeating: "9", count: 39), "within Float's range (0, or about"),
        // So small that it loses digits (the compiler warns) or would read as 0.
        ("f:Float=0.00000000000000000000000000000000000000001", "within Float's range (0, or"),
        ("d:Double=1e-310", "write 0, or a number from about 2.2e-308 to 1.8e308"),
        ("t:Date=1e-310", "write 0, or a number from about 2.2e-308"),
        // A default has no escapes: the backslash would stay in the value.
        (
            #"name:String="q\"uote""#,
            #"default 'q\"uote' in 'name:String="q\"uote"' holds a backslash"#
        ),
        (#"name:String?='it\'s'"#, "holds a backslash before a quote"),
        (#"p:String="x\\"y""#, #"write the quote alone: p:String="x"y""#),
    ])
    func aCommandLinesDefaultMustFitEveryPlatform(token: String, message: String) throws {
        #expect {
            try InvocationParser.parse(["Question", "id:String", token])
        } throws: { error in
            (error as? any BadInput)?.message.contains(message) == true
        }
        #expect(throws: Never.self) {
            try SpecParser.parse(modelName: "Question", fieldTokens: ["id:String", token])
        }
        #expect(throws: Never.self) {
            try InvocationParser.parse([
                "Question", "id:String", "n:Int=-2147483648", "f:Float=1.5",
            ])
        }
    }

    /// A manifest records a Double, Float or Date default as Swift writes the number (`1e-05`
    /// for `0.00001`): it is read back, so regen and the next run work (they were refused,
    /// and the package was stuck). A command line may write it so too.
    @Test func aFloatingDefaultIsReadInTheFormItIsRecordedIn() throws {
        let given = ["id:Int", "r:Double=0.00001", "f:Float=0.00001", "t:Date=10000000000000000"]
        guard case .generate(let request, _) = try InvocationParser.parse(["Price"] + given) else {
            Issue.record("not a generate command")
            return
        }
        let spec = request.spec
        #expect(
            spec.fields.map(\.defaultValue) == [
                nil, .number("1e-05"), .number("1e-05"), .number("1e+16"),
            ])
        let recorded = ["id:Int", "r:Double=1e-05", "f:Float=1e-05", "t:Date=1e+16"]
        #expect(try SpecParser.parse(modelName: "Price", fieldTokens: recorded) == spec)
        #expect(throws: Never.self) { try InvocationParser.parse(["Price"] + recorded) }
        // A number that would read as 0 is refused; 0 is not.
        #expect(throws: (any Error).self) {
            try SpecParser.parse(
                modelName: "Price",
                fieldTokens: ["id:Int", "r:Double=0." + String(repeating: "0", count: 330) + "1"])
        }
        #expect(throws: Never.self) {
            try SpecParser.parse(modelName: "Price", fieldTokens: ["id:Int", "r:Double=-0.0"])
        }
    }

    @Test func anEnumNamedLikeAReferredModelIsNamedKindAndKeepsItsIndex() throws {
        let spec = try SpecParser.parse(
            modelName: "Post",
            fieldTokens: ["id:Int", "user:enum(a,b):index", "owner:references(User)"])

        #expect(spec.fields[1].type == .enumeration(name: "UserKind", cases: ["a", "b"]))
        #expect(spec.fields[1].index == .index)
        #expect(spec.fields[2].swiftType == "User.ID")
    }

    @Test func aModelWhoseGeneratedTypeIsAnEngineTypeIsRefused() {
        #expect {
            try SpecParser.parseModelName("Shared")
        } throws: { error in
            (error as? any BadInput)?.message
                == "model name 'Shared' would make the generated code declare SharedRepository, "
                + "a name the engine uses; choose another name, for example SharedRecord"
        }
    }

    /// Each of these printed "Next: swift test" on a package that did not build: `ID` is
    /// `Identifiable`'s associated type in the model's extensions, `AnyObject` the constraint
    /// `@Observable` writes, and `Main.swift` is a program's entry point to SwiftPM.
    @Test(arguments: [
        ("ID", "is a name the generated code uses"), ("AnyObject", "is a name the generated"),
        ("main", "would write Main.swift, which SwiftPM builds as a program's entry point"),
        ("MAIN", "would write MAIN.swift"),
    ])
    func aModelNameThatCannotBuildIsRefused(name: String, message: String) {
        #expect {
            try SpecParser.parseModelName(name)
        } throws: { error in
            (error as? any BadInput)?.message.contains(message) == true
        }
    }

    /// A type nested thousands deep crashed the generator (its stack), and a model name of
    /// about 216 characters failed on the disk (exit 1): both are bad input, refused.
    @Test func aTypeNestedTooDeepAndAModelNameTooLongAreRefused() throws {
        let deep =
            String(repeating: "[", count: 3_000) + "String" + String(repeating: "]", count: 3_000)
        #expect {
            try SpecParser.parse(modelName: "Deep", fieldTokens: ["id:Int", "x:" + deep])
        } throws: { error in
            (error as? any BadInput)?.message.contains("3000 deep; nest them at most 32 deep")
                == true
        }
        #expect {
            try SpecParser.parse(
                modelName: "Deep",
                fieldTokens: ["id:Int", "x:String" + String(repeating: "? ", count: 3_000)])
        } throws: { error in
            (error as? any BadInput)?.message.contains("is optional twice") == true
        }
        let nested = String(repeating: "[", count: 32) + "Int" + String(repeating: "]", count: 32)
        #expect(throws: Never.self) {
            try SpecParser.parse(modelName: "Deep", fieldTokens: ["id:Int", "x:" + nested])
        }
        #expect {
            try SpecParser.parseModelName(String(repeating: "A", count: 129))
        } throws: { error in
            (error as? any BadInput)?.message.contains("is 129 characters long") == true
        }
        #expect(throws: Never.self) {
            try SpecParser.parseModelName("A" + String(repeating: "b", count: 127))
        }
    }

    @Test func keywordFieldNamesAreAllowed() throws {
        let spec = try SpecParser.parse(
            modelName: "Q", fieldTokens: ["id:Int", "default", "class:Int", "Type:Bool"])

        #expect(spec.fields.map(\.name) == ["id", "default", "class", "Type"])
    }

    @Test(arguments: ["store_changes", "Store_remade", "sqlite_master"])
    func aPluralThatNamesOneOfTheStoresOwnTablesIsRefused(plural: String) {
        #expect {
            try SpecParser.parse(modelName: "Entry", fieldTokens: ["id:Int"], plural: plural)
        } throws: { error in
            (error as? any BadInput)?.message.contains("--plural '\(plural)' starts like") == true
        }
    }

    @Test func aMissingIDShowsHowToAddOne() {
        #expect(
            throws: SpecError(
                "Question has no id field; add one, for example: scaffold-repo Question id:UUID text:String"
            )
        ) {
            try SpecParser.parse(modelName: "Question", fieldTokens: ["text:String"])
        }
    }

    @Test(arguments: [
        (["id:Strng"], "unknown type 'Strng' in 'id:Strng'. Did you mean String?"),
        (["id:String", "score:Dubble"], "Did you mean"),
        // A type's start, another language's word for it, a modifier where the type goes.
        (["id:String", "x:Str"], "unknown type 'Str' in 'x:Str'. Did you mean String?"),
        (["id:String", "x:integer"], "unknown type 'integer' in 'x:integer'. Did you mean Int?"),
        (["id:String", "x:Boolean"], "Did you mean Bool?"),
        (["id:String", "x:uniq"], "Did you mean x:String:unique? (A modifier follows the type.)"),
        (["id:String", "x:String:uniq"], "unknown modifier ':uniq' in 'x:String:uniq' (did you "),
        // A type written after `=` (found by an app trial: a String field whose default was
        // the text ":Int").
        (
            ["id:String", "count=:Int"],
            "'count=:Int' makes count a String whose default is the text \":Int\"; did you mean "
                + "'count:Int'? (The type follows the name after ':', and a default follows the "
                + "type after '=', as in count:Int=0.) For that text, write "
                + "'count:String=\":Int\"'"
        ),
        (["id:String", "title=:String:unique"], "did you mean 'title:String:unique'?"),
        (["id:String", "n=:integer=0"], "did you mean 'n:Int=0'?"),
        (["id:String", "n=:Int?"], "did you mean 'n:Int?'?"),
        (["id:Double"], "'id:Double' cannot be an id; use one of id:String, id:UUID, id:Int"),
        (["id:String?"], "cannot be an id"),
        (["id:String", "text:"], "'text:' has no type after ':'"),
        (["id:String", ":String"], "':String' has no field name"),
        (["id:String", "2nd:String"], "field name '2nd'"),
        (["id:String", "my-field:String"], "field name 'my-field'"),
        (["id:String", "self:String"], "field name 'self'"),
        (["id:String", "CodingKeys:String"], "field name 'CodingKeys'"),
        (
            ["id:String", "_"],
            "field name '_' in '_' is not a name the generator takes; use ASCII letters, digits and '_', not starting with a digit and not only '_'"
        ),
        (["id:enum(a,b)"], "'id:enum(a,b)' cannot be an id"),
        (
            ["id:String", "tags:[Strin]"],
            "unknown type 'Strin' in 'tags:[Strin]'. Did you mean String?"
        ),
        (["id:String", "m:[Int:String]"], "dictionary keys in 'm:[Int:String]' must be String"),
        (["id:String", "s:enum(a,a)"], "enum case 'a' is given twice"),
        (["id:String", "s:enum(a,2b)"], "enum case '2b'"),
        (
            ["id:String", "s:enum(draft,archivé)"],
            "enum case 'archivé' in 's:enum(draft,archivé)' is not a name the generator takes; use ASCII letters"
        ),
        (["id:String", "s:enum()"], "enum case ''"),
        (
            ["id:String", "n:Int=many"],
            "default 'many' does not fit Int in 'n:Int=many'; write a whole number"
        ),
        (["id:String", "d:Double=1e9.5"], "default '1e9.5' does not fit Double"),
        (["id:String", "folder:refrences(Folder)"], "Did you mean references(Folder)?"),
        (["id:String", "s:enm(a,b)"], "Did you mean enum(a,b)? Types:"),
        (["id:String", "b:Bool=yes"], "write true or false"),
        (["id:String", "t:[String]=[a]"], "an array's default is []"),
        (["id:String", "s:enum(a,b)=c"], "give one of its cases: a, b"),
        (["id:String", "u:UUID=nope"], "write a UUID"),
        (["id:String", "l:URL=example.com"], "write an absolute URL"),
        (["id:String", "x:Data=***"], "write base64 text"),
        (["id:String", "p:Decimal=1234567890123456789"], "up to 18 digits"),
        (["id:String=a"], "the id field cannot have a default"),
        (
            ["id:String", "status:enum(a,b)", "Status:enum(c)"],
            "two enum fields would both be named Status"
        ),
        (["id:String", "text", "text:Int"], "field 'text' is given twice"),
        (["id:String", "x:Int??"], "optional twice"),
        (["id:String", "tags:[String"], "Its '[' and ']' do not pair up"),
        (["id:String", "s:enum(a,b"], "Its '(' and ')' do not pair up"),
    ])
    func badFieldsAreRefusedWithTheToken(tokens: [String], message: String) {
        #expect {
            try SpecParser.parse(modelName: "Question", fieldTokens: tokens)
        } throws: { error in
            (error as? any BadInput)?.message.contains(message) == true
        }
    }

    @Test func anIDInOtherCaseIsPointedOut() {
        #expect(
            throws: SpecError(
                "Question has no id field; 'ID' is not 'id': write it in lower case, id:Int")
        ) {
            try SpecParser.parse(modelName: "Question", fieldTokens: ["ID:Int"])
        }
    }

    /// The model's synthesized `CodingKeys`, its frozen versions and its generated types are
    /// in its scope too.
    @Test func anEnumNamedLikeATypeInTheModelsScopeIsNamedKind() throws {
        let spec = try SpecParser.parse(
            modelName: "Note",
            fieldTokens: [
                "id:Int", "codingKeys:enum(a,b)", "caseIterable:enum(a,b)", "v1:enum(a,b)",
                "noteRepository:enum(a,b)",
            ])

        #expect(
            spec.fields.dropFirst().map(\.type.swiftSpelling) == [
                "CodingKeysKind", "CaseIterableKind", "V1Kind", "NoteRepositoryKind",
            ])
    }

    /// Every field type too: an enum field `float` beside a `Float` field would hide it.
    @Test func anEnumNamedLikeAFieldTypeIsNamedKind() throws {
        let tokens = BaseType.allCases.map { "\($0.rawValue.lowercased()):enum(a,b)" }
        let spec = try SpecParser.parse(
            modelName: "Gauge", fieldTokens: ["id:Int"] + tokens + ["ratio:Float"])

        let names = spec.fields.dropFirst().dropLast().map(\.type.swiftSpelling)
        #expect(names.filter { BaseType(rawValue: $0) != nil } == [])
        #expect(names.contains("FloatKind") && names.contains("Int64Kind"))
    }

    @Test(
        arguments: [
            "Data", "URL", "error", "String", "Codable", "FileManager", "Observable", "StoreFiles",
            "FileError",
        ] + BaseType.allCases.map(\.rawValue))
    func modelNamesThatWouldHideATypeTheCodeUsesAreRefused(name: String) {
        #expect {
            try SpecParser.parse(modelName: name, fieldTokens: ["id:String"])
        } throws: { error in
            (error as? any BadInput)?.message.contains("is a name the generated code uses") == true
        }
    }

    /// A property named like a type hides it in the model's own code: `URL:URL` printed
    /// "Next: swift test" on a package whose samples did not compile.
    @Test(arguments: ["URL", "Date", "UUID", "Data", "Decimal", "String", "Ordering"])
    func fieldNamesThatWouldHideATypeTheCodeUsesAreRefused(name: String) {
        #expect {
            try InvocationParser.parse(["Bookmark", "id:Int", "\(name):String"])
        } throws: { error in
            (error as? any BadInput)?.message.contains(
                "field name '\(name)' in '\(name):String' is the name of a type that the "
                    + "generated code uses") == true
        }
    }

    /// A property named like the model, one of its generated types or a model it refers to
    /// hides that type in its code: `Question:String` and `QuestionRepository:String` printed
    /// "Next: swift test" on a package that did not compile.
    @Test(arguments: [
        ["Question:String"], ["QuestionRepository:String"], ["QuestionListViewModel:Int"],
        ["Deck:String", "deck:references(Deck)"],
    ])
    func fieldNamesThatWouldHideTheModelsOwnTypesAreRefused(fields: [String]) {
        #expect {
            try InvocationParser.parse(["Question", "id:Int"] + fields + ["--storage", "sqlite"])
        } throws: { error in
            (error as? any BadInput)?.message.contains(
                "field name '\(fields[0].prefix { $0 != ":" })' in '\(fields[0])' is the name of a "
                    + "type that the model's code uses") == true
        }
    }

    /// Two indexed fields whose names differ only by case or underscores would declare one
    /// lookup twice (`docs(withTitle:)`); apart, or without a modifier, they are accepted.
    @Test(arguments: [
        ["Title:String:index", "title:String:index"],
        ["blog_post:String:unique", "blogPost:String:unique"],
    ])
    func indexedFieldsWhoseLookupsWouldShareANameAreRefused(fields: [String]) throws {
        #expect {
            try SpecParser.parse(modelName: "Doc", fieldTokens: ["id:Int"] + fields)
        } throws: { error in
            (error as? any BadInput)?.message.contains("would both name the lookup") == true
        }
        let plain = fields.map { $0.replacingOccurrences(of: ":index", with: "") }
            .map { $0.replacingOccurrences(of: ":unique", with: "") }
        _ = try SpecParser.parse(modelName: "Doc", fieldTokens: ["id:Int"] + plain)
    }

    @Test func hashValueIsRefusedAsAFieldName() {
        #expect {
            try SpecParser.parse(
                modelName: "Question", fieldTokens: ["id:String", "hashValue:Int"])
        } throws: { error in
            (error as? any BadInput)?.message.contains("clashes with a member every model has")
                == true
        }
    }

    @Test(arguments: ["", "9Lives", "My Model", "../Evil", "a/b", "self", "_", "Task-List", "café"])
    func badModelNamesAreRefused(name: String) {
        #expect(throws: SpecError.self) {
            try SpecParser.parse(modelName: name, fieldTokens: ["id:String"])
        }
    }
}
