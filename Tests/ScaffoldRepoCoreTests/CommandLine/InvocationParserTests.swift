import Testing

@testable import ScaffoldRepoCore

@Suite struct InvocationParserTests {
    @Test func modelAndFieldsMakeAStandaloneRequest() throws {
        let invocation = try InvocationParser.parse(["Question", "id:String", "text:String"])

        var expected = GenerateRequest(
            spec: ModelSpec(
                typeName: "Question",
                fields: [
                    Field(name: "id", type: .base(.string)),
                    Field(name: "text", type: .base(.string)),
                ]),
            destination: .standalone(outputDirectory: nil))
        // No --storage: journal for a new model, the recorded one for a model generated before.
        expected.storageIsChosen = false
        #expect(invocation == .generate(expected, RunOptions()))
    }

    @Test func optionsTakeValuesWithSpaceOrEquals() throws {
        let spaced = try InvocationParser.parse([
            "Q", "id:Int", "--output", "Out", "--force", "--templates", "T",
        ])
        let joined = try InvocationParser.parse([
            "Q", "id:Int", "--output=Out", "--force", "--templates=T",
        ])

        #expect(spaced == joined)
        guard case .generate(let request, _) = spaced else {
            Issue.record("expected a generate request")
            return
        }
        #expect(request.destination == .standalone(outputDirectory: "Out"))
        #expect(spaced == .generate(request, RunOptions(force: true)))
        #expect(request.templatesDirectory == "T")
    }

    @Test func intoNeedsTarget() throws {
        let request = try InvocationParser.parse([
            "Item", "id:UUID", "--into", "App", "--target", "AppCore",
        ])
        guard case .generate(let generate, _) = request else {
            Issue.record("expected a generate request")
            return
        }
        #expect(generate.destination == .into(packageDirectory: "App", target: "AppCore"))

        #expect(
            throws: UsageError(
                "--into needs --target NAME: the target in that package to add the files to")
        ) {
            try InvocationParser.parse(["Item", "id:UUID", "--into", "App"])
        }
    }

    @Test func storageIsJournalUnlessSnapshotIsAsked() throws {
        let plain = try InvocationParser.parse(["Q", "id:Int"])
        let snapshot = try InvocationParser.parse(["Q", "id:Int", "--storage", "snapshot"])

        guard case .generate(let plainRequest, _) = plain,
            case .generate(let snapshotRequest, _) = snapshot
        else {
            Issue.record("expected generate requests")
            return
        }
        #expect(plainRequest.storage == .journal)
        #expect(snapshotRequest.storage == .snapshot)
    }

    @Test func sqliteIsAStorageAndItsOwnTypeNamesAreRefusedAsModels() throws {
        guard
            case .generate(let request, _) = try InvocationParser.parse([
                "Q", "id:Int", "--storage=SQLite",
            ])
        else {
            Issue.record("expected a generate request")
            return
        }
        #expect(request.storage == .sqlite)
        for name in ["Query", "Fields"] {
            #expect {
                _ = try InvocationParser.parse([name, "id:Int", "--storage", "sqlite"])
            } throws: { error in
                (error as? any BadInput)?.message.contains("\(name)Record") == true
            }
            // The other storages declare neither.
            _ = try InvocationParser.parse([name, "id:Int"])
        }
    }

    @Test func helpAndVersionWinOverEverythingElse() throws {
        #expect(try InvocationParser.parse(["--help"]) == .help(topic: nil))
        #expect(try InvocationParser.parse(["Question", "-h"]) == .help(topic: "generate"))
        #expect(try InvocationParser.parse(["--version"]) == .version)
        #expect(try InvocationParser.parse(["help"]) == .help(topic: nil))
        #expect(try InvocationParser.parse(["help", "regen"]) == .help(topic: "regen"))
        #expect(try InvocationParser.parse(["regen", "--help"]) == .help(topic: "regen"))
        #expect(
            try InvocationParser.parse(["templates", "list", "-h"]) == .help(topic: "templates"))
        #expect(try InvocationParser.parse(["help", "g"]) == .help(topic: "generate"))
    }

    @Test(arguments: ["generate", "g"])
    func generateAndGNameTheCommandBeforeTheModel(word: String) throws {
        let plain = try InvocationParser.parse(["Book", "id:UUID", "title"])

        #expect(try InvocationParser.parse([word, "Book", "id:UUID", "title"]) == plain)
    }

    @Test(arguments: [
        (["--frce"], "unknown option '--frce'. Did you mean --force?"),
        (["-o", "x"], "unknown option '-o'. Run 'scaffold-repo --help' for the options."),
        (
            ["Q", "id:Int", "--storage", "jurnal"],
            "unknown storage 'jurnal'. Did you mean journal?"
        ),
        (["Q", "id:Int", "--output"], "--output needs a value"),
        (["Q", "id:Int", "--output", "a", "--output", "b"], "--output is given twice"),
        (["Q", "id:Int", "--force=yes"], "--force takes no value"),
        (["Q", "id:Int", "--target", "X"], "--target needs --into"),
        (
            ["Q", "id:Int", "--into", "P", "--target", "X", "--output", "O"],
            "cannot be used together"
        ),
        (["Q", "id:Int", "--into", "P", "--target", "bad-name"], "--target 'bad-name'"),
        ([], "no model given"),
        (
            ["Q", "id:Int", "--storage="],
            "--storage has an empty value; give journal|snapshot|sqlite, for example --storage journal"
        ),
        (["templates", "lst"], "'lst' is not a templates command (did you mean list?)"),
        (["completions", "zssh"], "no completion script for 'zssh'. Did you mean zsh?"),
        (["destroy"], "destroy needs a model"),
        (["destroy", "Note", "NoteStore", "extra"], "'extra' is one argument too many"),
        (["destroy", "Note", "NoteStore", "x", "y"], "'x y' are 2 arguments too many"),
    ])
    func badArgumentsNameTheTokenAndTheFix(arguments: [String], message: String) {
        #expect {
            try InvocationParser.parse(arguments)
        } throws: { error in
            (error as? any BadInput)?.message.contains(message) == true
        }
    }
}
