import Testing

@testable import ScaffoldRepoCore

@Suite struct NamesTests {
    @Test func everySpellingComesFromTheTypeName() {
        let names = Names(typeName: "Question")

        #expect(names.variable == "question")
        #expect(names.pluralVariable == "questions")
        #expect(names.repository == "QuestionRepository")
        #expect(names.repositoryError == "QuestionRepositoryError")
        #expect(names.listViewModel == "QuestionListViewModel")
        #expect(names.storePackage == "QuestionStore")
        #expect(names.storeFileName == "questions.json")
    }

    @Test func pluralCanBeOverridden() {
        let names = Names(typeName: "Sheep", plural: "flock")

        #expect(names.pluralVariable == "flock")
        #expect(names.journalFileName == "flock.journal")
    }

    @Test(arguments: [
        ("BlogPost", "blogPost"), ("URLLink", "urlLink"), ("URL", "url"), ("ID", "id"), ("a", "a"),
    ])
    func lowerCamelCaseKeepsAcronymsUniform(type: String, variable: String) {
        #expect(Names.lowerCamelCase(type) == variable)
    }

    @Test(arguments: [
        ("category", "categories"), ("box", "boxes"), ("status", "statuses"), ("day", "days"),
        ("match", "matches"), ("question", "questions"), ("person", "people"),
        ("blogPerson", "blogPeople"),
        ("child", "children"), ("leaf", "leaves"), ("userID", "userIDs"), ("index", "indices"),
        ("news", "newsItems"), ("series", "seriesItems"),
    ])
    func pluralsFollowEnglishSpelling(singular: String, plural: String) {
        #expect(Names.plural(of: singular) == plural)
    }
}
