import Foundation
import Testing

@testable import ScaffoldRepoCore

/// What each kind of change to a model does to data stored with the previous one.
@Suite struct ModelEvolutionTests {
    static func spec(_ tokens: [String], rename: String? = nil) throws -> ModelSpec {
        var spec = try SpecParser.parse(modelName: "Book", fieldTokens: ["id:UUID"] + tokens)
        if let rename { try SpecParser.applyRenames(rename, to: &spec) }
        return spec
    }

    static func effects(
        from old: [String], to new: [String], rename: String? = nil
    ) throws -> [ModelEvolution.Effect] {
        ModelEvolution(previous: try spec(old), next: try spec(new, rename: rename))
            .changes.map(\.effect)
    }

    @Test(arguments: [
        (["title"], ["title", "pages:Int?"]),  // a new optional field
        (["title"], ["title", "pages:Int=0"]),  // a new field with a default
        (["rating:Int"], ["rating:Int?"]),  // a field that becomes optional
        (["s:enum(a,b)"], ["s:enum(a,b,c)"]),  // a new enum case
        (["title"], ["headline"]),  // a rename (below)
        (["shelf=main"], ["shelf=attic"]),  // another default
        (["note:String?=a"], ["note:String?=b"]),  // another default of an optional field
        (["note:String?"], ["note:String=hi"]),  // required, a nil stored without a key loads hi
    ])
    func compatibleChangesAreNotes(old: [String], new: [String]) throws {
        let rename = new == ["headline"] ? "title=headline" : nil
        #expect(try Self.effects(from: old, to: new, rename: rename) == [.compatible])
    }

    @Test(arguments: [
        (["title"], ["title", "pages:Int"]),  // a new required field without a default
        (["rating:Int?"], ["rating:String?"]),  // a type change
        (["rating:Int?"], ["rating:Int"]),  // optional to required
        (["s:enum(a,b)"], ["s:enum(a)"]),  // a removed enum case
        (["count:Int=0"], ["count:Int"]),  // a default removed
        // A default for an optional field: a nil saved before has no key, and would load as it.
        (["note:String?"], ["note:String?=hello"]),
        (["note:String?=nil"], ["note:String?=hello"]),
        // An optional field's default removed: values stored before it existed would load nil.
        (["note:String?=hello"], ["note:String?"]),
        // A nil stored as null (the field had a default) loads into no required field.
        (["note:String?=hello"], ["note:String=hello"]),
    ])
    func breakingChangesAreRefused(old: [String], new: [String]) throws {
        #expect(try Self.effects(from: old, to: new) == [.breaksStoredData])
    }

    /// A reference, `:unique` or `:index` added, removed or changed leaves the stored JSON as
    /// it is: the store opens, keeps every value, and says which ones no longer fit.
    @Test(arguments: [
        (["folderID:UUID"], ["folder:references(Folder)"], "danglingReferences()"),
        (["folder:references(Folder)"], ["folderID:UUID"], "no longer refers to Folder"),
        (
            ["folder:references(Folder)"], ["folder:references(Folder,cascade)"],
            "now follows cascade"
        ),
        (["email"], ["email:String:unique"], "duplicates() lists them"),
        (["email:String:unique"], ["email"], "no longer unique and has no index"),
        (["title"], ["title:String:index"], "has an index now"),
        (["title:String:index"], ["title"], "has no index of its own now"),
    ])
    func relationChangesOpenTheStoreAndSaySo(old: [String], new: [String], says: String) throws {
        let evolution = ModelEvolution(previous: try Self.spec(old), next: try Self.spec(new))
        #expect(evolution.changes.map(\.effect) == [.compatible])
        #expect(evolution.changes.first?.message.contains(says) == true, "\(evolution.changes)")
    }

    @Test func anIDTypeChangeIsRefusedByName() throws {
        let previous = try Self.spec(["title"])
        var next = try SpecParser.parse(modelName: "Book", fieldTokens: ["id:Int", "title"])

        #expect {
            try ModelEvolution.check(&next, previous: previous)
        } throws: { error in
            let message = (error as? any BadInput)?.message ?? ""
            return message.contains(
                "the id type cannot change from UUID to Int, not even with --migrate")
                && message.contains("Nothing was written")
        }
    }

    @Test func aRemovedFieldWarnsAndSuggestsARenameToAnAddedFieldOfItsType() throws {
        let evolution = ModelEvolution(
            previous: try Self.spec(["title", "rating:Int?"]),
            next: try Self.spec(["headline=Untitled", "rating:Int?"]))

        #expect(evolution.changes.map(\.effect) == [.compatible, .dropsValues])
        #expect(evolution.changes[1].message.contains("--rename title=headline"))
        #expect(!evolution.changes[1].message.contains("misspelled"))
    }

    @Test func aRemovedFieldBesideAnAddedOneThatLooksLikeItIsATypo() throws {
        let evolution = ModelEvolution(
            previous: try Self.spec(["title", "rating:Double?"]),
            next: try Self.spec(["title", "ratng:Double?"]))

        #expect(
            evolution.changes.last?.message.contains(
                "if ratng is rating misspelled, write rating; if ratng is rating renamed") == true)
    }

    @Test func aNewRequiredFieldIsRefusedWithBothFixes() throws {
        var next = try Self.spec(["title", "pages:Int"])

        #expect {
            try ModelEvolution.check(&next, previous: try Self.spec(["title"]))
        } throws: { error in
            let message = (error as? any BadInput)?.message ?? ""
            return message.contains("pages:Int=0") && message.contains("pages:Int?")
        }
    }

    @Test func aRecordedRenameIsKeptWhenTheModelIsGeneratedAgainWithoutIt() throws {
        let previous = try Self.spec(["headline"], rename: "title=headline")
        var next = try Self.spec(["headline", "pages:Int?"])

        _ = try ModelEvolution.check(&next, previous: previous)

        #expect(next.fields.first { $0.name == "headline" }?.formerName == "title")
    }

    /// A field made optional that loses its default: values stored before it existed would
    /// load nil (the widening itself is a note).
    @Test func aFieldMadeOptionalKeepsItsDefaultOrIsRefused() throws {
        #expect(
            try Self.effects(from: ["count:Int=0"], to: ["count:Int?"])
                == [.compatible, .breaksStoredData])
        #expect(
            try Self.effects(from: ["count:Int=0"], to: ["count:Int?=5"])
                == [.compatible, .compatible])
    }

    /// A field made required with a default is still compared as any other: a removed enum
    /// case is refused, and a unique one says that the values stored without one share it.
    @Test func aFieldMadeRequiredWithADefaultIsComparedInFull() throws {
        #expect(
            try Self.effects(from: ["s:enum(a,b,c)?"], to: ["s:enum(a,b)=a"])
                == [.compatible, .breaksStoredData])
        let messages = ModelEvolution(
            previous: try Self.spec(["code:String?:unique"]),
            next: try Self.spec(["code:String:unique=zz"])
        ).changes.map(\.message)
        #expect(messages.contains { $0.contains("all share it") })
    }

    /// A new unique field with a default: every stored value loads the same one, and the note
    /// says what that does.
    @Test func aNewUniqueFieldWithADefaultSaysEveryValueSharesIt() throws {
        let messages = ModelEvolution(
            previous: try Self.spec(["title"]),
            next: try Self.spec(["title", "code:String?:unique=zz"])
        ).changes.map(\.message)

        #expect(messages.contains { $0.contains("so they all share it: duplicates() lists them") })
    }

    /// A new optional field with a default loads it where a stored value has no key.
    @Test func aNewOptionalFieldWithADefaultLoadsItsDefault() throws {
        let messages = ModelEvolution(
            previous: try Self.spec(["title"]),
            next: try Self.spec(["title", "mood:String?=happy", "note:String?=nil"])
        ).changes.map(\.message)

        #expect(messages.contains { $0.contains("mood") && $0.hasSuffix("load with the default") })
        #expect(messages.contains { $0.contains("note") && $0.hasSuffix("load with note = nil") })
    }

    /// With --migrate (the run is refused without it: ChangingAModelTests), a new field of a
    /// renamed field's former name ends the rename: the current model reads `title` into the
    /// new field, and the frozen version reads it into headline.
    @Test func aNewFieldWithARenamedFieldsFormerNameEndsTheRename() throws {
        let previous = try Self.spec(["headline"], rename: "title=headline")
        var next = try Self.spec(["headline", "title=\"\""])

        _ = try ModelEvolution.check(&next, previous: previous, migrate: true)

        #expect(next.fields.first { $0.name == "headline" }?.formerName == nil)
    }

    @Test(arguments: [
        ("title=missing", "has no field 'missing'"),
        ("headline=title", "'headline' is still a field"),
        ("x=id", "id cannot be renamed"),
        ("title", "is not OLD=NEW"),
        ("id=isbn", "the id field cannot be renamed"),
    ])
    func badRenamesAreRefused(rename: String, message: String) throws {
        var spec = try SpecParser.parse(
            modelName: "Book", fieldTokens: ["id:UUID", "title", "headline"])

        #expect {
            try SpecParser.applyRenames(rename, to: &spec)
        } throws: { error in
            (error as? any BadInput)?.message.contains(message) == true
        }
    }

    /// The default a message suggests for a field (`=0`, `=nil`) is one the field language
    /// takes, for every type.
    @Test(arguments: BaseType.allCases)
    func theSuggestedDefaultOfEveryTypeParses(base: BaseType) throws {
        let types: [FieldType] = [
            .base(base), .optional(.base(base)), .array(.base(base)), .dictionary(.base(base)),
            .enumeration(name: "Status", cases: ["draft", "done"]),
        ]
        for type in types {
            let example = ModelEvolution.exampleDefault(type)
            #expect(throws: Never.self, "\(type): \(example)") {
                try DefaultParser.parse(example, for: type, in: "field")
            }
        }
    }

    /// The field language's page lists every type, in the type table's order.
    @Test func theFieldLanguagePageListsEveryType() throws {
        let types = BaseType.allCases.map { "`\($0.rawValue)`" }.joined(separator: " ")

        try GeneratedDocs.expectLine(
            of: "Documentation/field-language.md", startingWith: "| types |",
            toBe: "| types | \(types), in any letter case (`string` works) | |")
    }
}
