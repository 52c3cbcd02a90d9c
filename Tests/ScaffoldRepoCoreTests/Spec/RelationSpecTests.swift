import Foundation
import Testing

@testable import ScaffoldRepoCore

/// The field language's references (`folder:references(Folder,cascade)`) and its `:unique` and
/// `:index` modifiers: what they parse to, how they are written back, and each misuse's message.
@Suite struct RelationSpecTests {
    func field(_ token: String) throws -> Field {
        try SpecParser.parseField(token, modelName: "Note")
    }

    func message(_ token: String) -> String {
        do {
            _ = try field(token)
            return "no error"
        } catch let error as SpecError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    @Test func aReferenceIsAnIDFieldNamedAfterTheModelWithItsRule() throws {
        #expect(
            try field("folder:references(Folder)")
                == Field(
                    name: "folderID", type: .base(.uuid),
                    reference: Reference(model: "Folder", rule: .restrict)))
        #expect(try field("folder:references(folder,CASCADE)").reference?.rule == .cascade)
        #expect(try field("owner:references(user_account)").reference?.model == "UserAccount")
        #expect(try field("folderID:references(Folder)").name == "folderID")
        let nullify = try field("folder:references(Folder,nullify)?")
        #expect(nullify.type == .optional(.base(.uuid)))
        #expect(nullify.swiftType == "Folder.ID?")
        #expect(try field("folder:references(Folder)?=nil").defaultValue == DefaultValue.none)
    }

    @Test func modifiersAskForAnIndexOnAScalar() throws {
        #expect(try field("email:String:unique").index == .unique)
        #expect(try field("title:string:INDEX").index == .index)
        #expect(try field("due:Date?:index").type == .optional(.base(.date)))
        #expect(try field("score:Int:index=3").defaultValue == .number("3"))
        #expect(try field("folder:references(Folder):unique").index == .unique)
        #expect(try field("folder:references(Folder):unique").isIndexed)
    }

    @Test func eachFieldIsWrittenBackAsItParses() throws {
        for token in [
            "folderID:references(Folder)", "folderID:references(Folder,cascade)",
            "folderID:references(Folder,nullify)?", "email:String:unique",
            "rank:Int?:index", "folderID:references(Folder):unique",
        ] {
            let parsed = try field(token)
            // Messages name a reference as it is typed (the field is folderID either way);
            // the manifest records the field's name.
            let typed = token.replacingOccurrences(of: "folderID:", with: "folder:")
            #expect(SpecFormatter.token(parsed) == typed)
            #expect(try field(typed) == parsed)
            #expect(Manifest.FieldRecord(parsed).token == token)
            #expect(try field(Manifest.FieldRecord(parsed).token) == parsed)
        }
    }

    @Test func eachMisuseNamesTheTokenAndTheFix() {
        #expect(message("folder:references(Folder,nullify)").contains("must be optional"))
        #expect(message("folder:references(Folder,nullify)").contains("nullify)?'"))
        #expect(message("folder:references(Folder,purge)").contains("unknown delete rule 'purge'"))
        #expect(message("folder:references(Folder").contains("not closed"))
        #expect(message("folder:references()").contains("references(Model)"))
        #expect(message("folders:[references(Folder)]").contains("holds one id"))
        #expect(message("id:references(Folder)").contains("id cannot be a reference"))
        #expect(message("folder:references(Folder)=x").contains("no default"))
        #expect(message("tags:[String]:index").contains("not an array"))
        #expect(message("email:String:uniq").contains("unknown modifier ':uniq'"))
        #expect(message("email:String:unique:index").contains("more than one modifier"))
        #expect(message("done:Bool:unique").contains("cannot be unique"))
        #expect(message("level:enum(a,b):unique").contains("cannot be unique"))
        #expect(message("id:Int:unique").contains("unique and indexed already"))
    }
}

/// A reference checked against the package's models, through the command line.
@Suite struct ReferenceCheckTests {
    func run(_ arguments: [String], in folder: URL) -> RunResult {
        ScaffoldRepo.run(arguments, currentDirectory: folder)
    }

    @Test func aReferenceToAModelOfThePackageGetsItsIDType() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(
            run(["Folder", "id:Int", "--storage", "sqlite", "--output", "App"], in: folder).exitCode
                == 0)

        let note = run(
            [
                "Note", "id:UUID", "folder:references(Folder,cascade)", "--storage", "sqlite",
                "--into", "App", "--target", "FolderStore",
            ], in: folder)

        #expect(note.exitCode == 0, "\(note.standardError)")
        let manifest = try #require(
            Manifest.load(root: folder.appendingPathComponent("App"))?.model(named: "Note"))
        #expect(manifest.fields.map(\.token) == ["id:UUID", "folderID:references(Folder,cascade)"])
        let source =
            TestPaths.text(
                folder.appendingPathComponent("App/Sources/FolderStore/Note.swift")) ?? ""
        #expect(source.contains("public var folderID: Folder.ID"))
    }

    @Test func aReferenceThatCannotHoldIsRefusedWithNothingWritten() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(
            run(["Folder", "id:Int", "--storage", "sqlite", "--output", "App"], in: folder).exitCode
                == 0)
        #expect(run(["Label", "id:Int", "--output", "Labels"], in: folder).exitCode == 0)
        let into = ["--storage", "sqlite", "--into", "App", "--target", "FolderStore"]
        let cases: [([String], String)] = [
            (["Note", "id:UUID", "folder:references(Foldr)"] + into, "Did you mean Folder?"),
            (["Note", "id:UUID", "note:references(Note)?"] + into, "referring to itself"),
            (["Note", "id:UUID", "folder:references(Folder)"], "needs --storage sqlite"),
            (
                ["Note", "id:UUID", "folder:references(Folder)", "--storage", "sqlite"],
                "not a model of this package"
            ),
            (
                [
                    "Note", "id:UUID", "label:references(Label)", "--storage", "sqlite", "--into",
                    "Labels", "--target", "LabelStore",
                ],
                "Label uses --storage journal"
            ),
        ]
        for (arguments, expected) in cases {
            let result = run(arguments, in: folder)
            #expect(result.exitCode == 2, "\(arguments)")
            #expect(result.standardError.contains(expected), "\(result.standardError)")
        }
        #expect(
            !FileManager.default.fileExists(atPath: folder.appendingPathComponent("NoteStore").path)
        )
        #expect(
            !FileManager.default.fileExists(
                atPath: folder.appendingPathComponent("App/Sources/FolderStore/Note.swift").path))
    }

    @Test func aReferenceToAModelOfAnotherModuleIsRefused() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(
            run(["Folder", "id:Int", "--storage", "sqlite", "--output", "App"], in: folder)
                .exitCode == 0)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("App/Sources/Other"),
            withIntermediateDirectories: true)

        let result = run(
            [
                "Note", "id:UUID", "folder:references(Folder)", "--storage", "sqlite", "--into",
                "App", "--target", "Other",
            ], in: folder)

        #expect(result.exitCode == 2)
        #expect(result.standardError.contains("Folder is in module FolderStore"))
        #expect(
            !FileManager.default.fileExists(
                atPath: folder.appendingPathComponent("App/Sources/Other/Note.swift").path))
    }

    @Test func aModelAnotherRefersToIsNotDestroyed() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(
            run(["Folder", "id:Int", "--storage", "sqlite", "--output", "App"], in: folder).exitCode
                == 0)
        let note = [
            "Note", "id:UUID", "folder:references(Folder)", "--storage", "sqlite", "--into", "App",
            "--target", "FolderStore",
        ]
        #expect(run(note, in: folder).exitCode == 0)

        let destroy = run(["destroy", "Folder", "App"], in: folder)

        #expect(destroy.exitCode == 2)
        #expect(destroy.standardError.contains("Note refers to Folder; destroy Note first"))
        #expect(
            FileManager.default.fileExists(
                atPath: folder.appendingPathComponent("App/Sources/FolderStore/Folder.swift").path))
        #expect(run(["destroy", "Note", "App"], in: folder).exitCode == 0)
        #expect(run(["destroy", "Folder", "App"], in: folder).exitCode == 0)
    }
}
