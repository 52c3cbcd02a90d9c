import Foundation
import Testing

@testable import ScaffoldRepoCore

/// What a person used to other command-line tools expects: focused help, completions, JSON
/// errors, suggestions for typos, colours only on a terminal, and tidy `destroy` and
/// `--templates`.
@Suite struct CommandLineHabitsTests {
    private func run(_ arguments: [String], in folder: URL) -> RunResult {
        ScaffoldRepo.run(arguments, currentDirectory: folder)
    }

    @Test(arguments: [["help", "regen"], ["regen", "--help"], ["regen", "-h"]])
    func helpForOneCommandHasItsUsageAndExamples(arguments: [String]) throws {
        let result = run(arguments, in: FileManager.default.temporaryDirectory)

        #expect(result.exitCode == 0)
        #expect(result.standardOutput.hasPrefix("scaffold-repo regen [DIR]"))
        #expect(result.standardOutput.contains("EXAMPLES\n  scaffold-repo regen\n"))
    }

    @Test func everyCommandHasHelp() {
        for command in CommandHelp.commands where command != "help" {
            #expect(CommandHelp.texts[command]?.contains("EXAMPLES") == true, "\(command)")
        }
        #expect(
            run(["help"], in: FileManager.default.temporaryDirectory).standardOutput
                == InvocationParser.usage)
    }

    @Test func helpForAnUnknownCommandSuggestsOne() {
        let result = run(["help", "destory"], in: FileManager.default.temporaryDirectory)

        #expect(result.exitCode == 2)
        #expect(result.standardError.contains("no command 'destory'. Did you mean destroy?"))
    }

    @Test(arguments: ["regne", "destory", "templtes", "completion"])
    func aMistypedCommandIsNotTakenForAModel(word: String) throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }

        let result = run([word, "."], in: folder)

        #expect(result.exitCode == 2)
        #expect(result.standardError.contains("no command '\(word)'. Did you mean"))
        #expect(result.standardError.contains("write it with a capital letter"))
        #expect(try TestPaths.files(below: folder).isEmpty)
    }

    @Test func lowercaseModelNamesFarFromCommandsStillGenerate() throws {
        guard case .generate(let request, _) = try InvocationParser.parse(["person", "id:Int"])
        else {
            Issue.record("person was not read as a model")
            return
        }
        #expect(request.spec.typeName == "Person")
    }

    @Test(arguments: [
        ("rating:Itn?", "Did you mean Int?"), ("tags:[Strnig]", "Did you mean String?"),
        ("scores:[String:Itn]", "Did you mean Int?"), ("due:Daet", "Did you mean Date?"),
        ("flag:Bol", "Did you mean Bool?"),
    ])
    func typeSuggestionsReachInsideOptionalsArraysAndDictionaries(field: String, hint: String) {
        let result = run(["Book", "id:UUID", field], in: FileManager.default.temporaryDirectory)

        #expect(result.exitCode == 2)
        #expect(result.standardError.contains(hint), "\(result.standardError)")
    }

    @Test func errorsUnderJSONAreJSONOnStdoutAndTextOnStderr() throws {
        let result = run(
            ["Book", "id:Strng", "--json"], in: FileManager.default.temporaryDirectory)

        #expect(result.exitCode == 2)
        #expect(result.standardError.hasPrefix("error: unknown type 'Strng'"))
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
                as? [String: Any])
        #expect(object["exitCode"] as? Int == 2)
        #expect((object["error"] as? String)?.hasPrefix("unknown type 'Strng'") == true)
    }

    /// A script that asks for JSON reads JSON whatever it asked: the version as an object, and
    /// help, which is text, as an error.
    @Test func versionAndHelpUnderJSONAreJSON() throws {
        let folder = FileManager.default.temporaryDirectory
        let version = run(["--version", "--json"], in: folder)
        let help = run(["--help", "--json"], in: folder)

        #expect(version.exitCode == 0)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(version.standardOutput.utf8))
                as? [String: Any])
        #expect(object["version"] as? String == ScaffoldRepo.version)
        #expect(help.exitCode == 2)
        let error = try #require(
            try JSONSerialization.jsonObject(with: Data(help.standardOutput.utf8))
                as? [String: Any])
        #expect(error["error"] as? String == "--json: help is text for people; leave out --json")
    }

    @Test func destroyRemovesThePackageFolderItCreatedOnceEmpty() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        _ = run(["Tag", "id:String"], in: folder)

        let result = run(["destroy", "Tag", "TagStore"], in: folder)

        #expect(result.exitCode == 0)
        #expect(result.standardOutput.hasSuffix("delete    TagStore/\n"))
        #expect(
            !FileManager.default.fileExists(atPath: folder.appendingPathComponent("TagStore").path))
    }

    @Test func destroyKeepsThePackageFolderWhenSomethingElseIsInIt() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        _ = run(["Tag", "id:String"], in: folder)
        try Data("notes\n".utf8).write(to: folder.appendingPathComponent("TagStore/NOTES.md"))

        let result = run(["destroy", "Tag", "TagStore"], in: folder)

        #expect(result.exitCode == 0)
        #expect(!result.standardOutput.contains("delete    TagStore/\n"))
        #expect(try TestPaths.files(below: folder) == ["TagStore/NOTES.md"])
    }

    @Test func templatesGivenAsTheFolderThatWasEjectedIntoAreUsed() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Custom"), withIntermediateDirectories: true)
        _ = run(["templates", "eject", "Custom"], in: folder)
        let template = folder.appendingPathComponent("Custom/.scaffold/templates/gitignore.tmpl")
        try Data(((TestPaths.text(template) ?? "") + "*.custom\n").utf8).write(to: template)

        let result = run(["Tag", "id:String", "--templates", "Custom"], in: folder)

        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(
            TestPaths.text(folder.appendingPathComponent("TagStore/.gitignore"))?
                .hasSuffix("*.custom\n") == true)
    }

    @Test func templatesGivenAsAFolderWithoutTemplatesAreRefused() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        _ = run(["Tag", "id:String"], in: folder)

        let result = run(["Note", "id:String", "--templates", "TagStore"], in: folder)

        #expect(result.exitCode == 2)
        #expect(result.standardError.contains("--templates 'TagStore' holds no .tmpl files"))
        #expect(
            !FileManager.default.fileExists(atPath: folder.appendingPathComponent("NoteStore").path)
        )
    }

    @Test func outputIntoAnAppsOwnPackageIsRefusedWithTheIntoCommand() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        let app = folder.appendingPathComponent("MyApp")
        try FileManager.default.createDirectory(
            at: app.appendingPathComponent("Sources/App"), withIntermediateDirectories: true)
        try Data("// swift-tools-version: 6.1\n".utf8).write(
            to: app.appendingPathComponent("Package.swift"))
        _ = run(["Item", "id:Int", "--into", ".", "--target", "App"], in: app)
        let before = try TestPaths.files(below: app)

        let result = run(["Tag", "id:Int", "--output", "MyApp"], in: folder)

        #expect(result.exitCode == 2)
        #expect(
            result.standardError.contains(
                "use --into MyApp --target App (its targets: App)"))
        #expect(try TestPaths.files(below: app) == before)
    }

    @Test func outputIntoThePackageOfAnotherModelIsRefused() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        _ = run(["Note", "id:UUID", "title"], in: folder)
        let before = try TestPaths.files(below: folder)

        let result = run(["Book", "id:UUID", "title", "--output", "NoteStore"], in: folder)
        let again = run(["Note", "id:UUID", "title", "--output", "NoteStore"], in: folder)

        #expect(result.exitCode == 2)
        #expect(result.standardError.contains("the package scaffold-repo generated for Note"))
        #expect(result.standardError.contains("use --into NoteStore --target NoteStore"))
        #expect(try TestPaths.files(below: folder) == before)
        #expect(again.exitCode == 0)
    }

    /// The status words are coloured where the status lines are made, not found again in the
    /// output: the rest of the output, the next step included, is as plain as without colour.
    @Test func statusWordsAreColouredOnlyWhenWanted() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }

        let result = run(["Note", "id:UUID", "title"], in: folder)
        let coloured = try #require(result.colouredStandardOutput)

        #expect(coloured.hasPrefix("\u{1B}[32mcreate\u{1B}[0m    NoteStore/"))
        #expect(
            coloured.replacingOccurrences(of: "\u{1B}[32m", with: "")
                .replacingOccurrences(of: "\u{1B}[0m", with: "") == result.standardOutput)
        #expect(coloured.hasSuffix("Next: cd NoteStore && swift test\n"))
        #expect(PlanReport.line("built-in", "X", coloured: true) == "built-in  X\n")
        #expect(StatusColors.isWanted(isTerminal: true, environment: [:], isJSON: false))
        #expect(!StatusColors.isWanted(isTerminal: false, environment: [:], isJSON: false))
        #expect(
            !StatusColors.isWanted(isTerminal: true, environment: ["NO_COLOR": "1"], isJSON: false))
        #expect(!StatusColors.isWanted(isTerminal: true, environment: [:], isJSON: true))
    }

    @Test(arguments: Completions.shells)
    func completionsPrintAScriptThatNamesEveryCommand(shell: String) {
        let result = run(["completions", shell], in: FileManager.default.temporaryDirectory)

        #expect(result.exitCode == 0)
        for command in ["regen", "destroy", "templates", "storage", "journal", "String"] {
            #expect(result.standardOutput.contains(command), "\(shell): \(command)")
        }
    }

    /// Sources the bash script and asks it to complete `line`, as bash does on Tab: `words` is
    /// the line as bash splits it (at `:` too).
    @Test(arguments: [
        ("scaffold-repo re", ["scaffold-repo", "re"], "regen"),
        ("scaffold-repo Book --sto", ["scaffold-repo", "Book", "--sto"], "--storage"),
        ("scaffold-repo Book --storage j", ["scaffold-repo", "Book", "--storage", "j"], "journal"),
        ("scaffold-repo Book title:Str", ["scaffold-repo", "Book", "title", ":", "Str"], "String"),
        ("scaffold-repo completions z", ["scaffold-repo", "completions", "z"], "zsh"),
        ("scaffold-repo Q 'note:Str", ["scaffold-repo", "Q", "'note:Str"], "note:String"),
        ("scaffold-repo Q id:uu", ["scaffold-repo", "Q", "id", ":", "uu"], "UUID"),
        (
            "scaffold-repo Q --storage=sn", ["scaffold-repo", "Q", "--storage", "=", "sn"],
            "snapshot"
        ),
        ("scaffold-repo help re", ["scaffold-repo", "help", "re"], "regen"),
    ])
    func theBashCompletionCompletes(line: String, words: [String], expected: String) throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        let script = folder.appendingPathComponent("completion.bash")
        try Data(Completions.script(for: "bash").utf8).write(to: script)
        // Single-quoted for the shell, with each ' written as '\''.
        let quote = { (text: String) in
            "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
        }
        let quoted = words.map(quote).joined(separator: " ")
        let program = """
            source \(quote(script.path))
            COMP_LINE=\(quote(line)); COMP_POINT=\(line.utf8.count)
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
            _scaffold_repo
            printf '%s\\n' "${COMPREPLY[@]}"
            """

        let outcome = try TestProcess.run("bash", ["-c", program], in: folder)

        #expect(outcome.status == 0, "\(outcome.output)")
        #expect(outcome.output.split(separator: "\n").map(String.init) == [expected])
    }
}
