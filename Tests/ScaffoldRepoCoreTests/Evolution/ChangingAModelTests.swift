import Foundation
import Testing

@testable import ScaffoldRepoCore

/// Generating a model again with changes, as the README's "Changing a model" describes.
@Suite struct ChangingAModelTests {
    let folder: URL

    init() throws {
        folder = try TestPaths.makeTemporaryFolder()
    }

    func run(_ arguments: [String]) -> RunResult {
        ScaffoldRepo.run(arguments, currentDirectory: folder)
    }

    func text(_ path: String) -> String? {
        TestPaths.text(folder.appendingPathComponent(path))
    }

    @Test func aCompatibleChangeIsDescribedBeforeTheStatuses() {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(run(["Book", "id:UUID", "title", "rating:Int?"]).exitCode == 0)

        let result = run(["Book", "id:UUID", "title", "pages:Int?", "shelf=main"])

        #expect(result.exitCode == 0)
        #expect(
            result.standardOutput.hasPrefix(
                "Book changed since it was last generated:\n"
                    + "  note     added pages:Int?: stored values load with pages = nil\n"
                    + "  note     added shelf:String=\"main\": stored values load with the default\n"
                    + "  warning  removed rating: its stored values are dropped"))
        #expect(result.standardError.contains("warning: Book: removed rating"))
        #expect(
            result.standardOutput.contains("update    BookStore/Sources/BookStore/Book.swift\n"))
    }

    @Test func aBreakingChangeIsRefusedAndNothingIsWritten() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(run(["Book", "id:UUID", "title", "rating:Int?"]).exitCode == 0)
        let before = try TestPaths.files(below: folder).map { ($0, text($0)) }

        let result = run(["Book", "id:UUID", "title", "rating:String?", "pages:Int"])

        #expect(result.exitCode == 2)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("Book cannot change this way"))
        #expect(result.standardError.contains("rating changes type from Int? to String?"))
        #expect(result.standardError.contains("pages:Int is a new required field"))
        #expect(
            try TestPaths.files(below: folder).map { ($0, text($0)) }.elementsEqual(before) {
                $0 == $1
            })
    }

    @Test func aRenameIsRecordedKeptByLaterRunsAndReproducedByRegen() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(run(["Book", "id:UUID", "title"]).exitCode == 0)

        let renamed = run(["Book", "id:UUID", "headline", "--rename", "title=headline"])
        let later = run(["Book", "id:UUID", "headline", "pages:Int?"])

        #expect(renamed.exitCode == 0)
        #expect(renamed.standardOutput.contains("note     renamed title to headline"))
        #expect(later.exitCode == 0)
        let manifest = text("BookStore/.scaffold/manifest.json") ?? ""
        #expect(manifest.contains("\"--rename\",\n        \"title=headline\""))
        #expect(text("BookStore/Sources/BookStore/Book.swift")?.contains("case title") == true)
        #expect(run(["regen", "BookStore", "--check"]).exitCode == 0)
    }

    @Test func anEditedPackageSwiftIsOwnedAndNeverBlocksAddingAField() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(run(["Book", "id:UUID", "title"]).exitCode == 0)
        let manifest = folder.appendingPathComponent("BookStore/Package.swift")
        let edited = (text("BookStore/Package.swift") ?? "") + "// an app target of mine\n"
        try Data(edited.utf8).write(to: manifest)

        let result = run(["Book", "id:UUID", "title", "pages:Int?"])
        let check = run(["regen", "BookStore", "--check"])

        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("owned     BookStore/Package.swift\n"))
        #expect(
            result.standardOutput.contains("update    BookStore/Sources/BookStore/Book.swift\n"))
        #expect(text("BookStore/Package.swift") == edited)
        #expect(check.exitCode == 0, "\(check.standardOutput)")
        #expect(check.standardOutput.contains("owned     BookStore/Package.swift\n"))
    }
}
