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

    /// Singular and plural pairs from the test cases of Rails' ActiveSupport inflector (where
    /// this project agrees with it), and the compounds, -is and -oes nouns it cares about.
    @Test(arguments: [
        ("search", "searches"), ("switch", "switches"), ("fix", "fixes"), ("box", "boxes"),
        ("process", "processes"), ("address", "addresses"), ("case", "cases"),
        ("stack", "stacks"), ("wish", "wishes"), ("category", "categories"),
        ("query", "queries"), ("ability", "abilities"), ("agency", "agencies"),
        ("movie", "movies"), ("archive", "archives"), ("index", "indices"), ("wife", "wives"),
        ("half", "halves"), ("move", "moves"), ("salesperson", "salespeople"),
        ("person", "people"), ("spokesman", "spokesmen"), ("man", "men"), ("woman", "women"),
        ("basis", "bases"), ("diagnosis", "diagnoses"), ("datum", "data"), ("medium", "media"),
        ("analysis", "analyses"), ("nodeChild", "nodeChildren"), ("child", "children"),
        ("experience", "experiences"), ("day", "days"), ("comment", "comments"),
        ("foobar", "foobars"), ("newsletter", "newsletters"), ("oldNews", "oldNewsItems"),
        ("news", "newsItems"), ("series", "seriesItems"), ("species", "speciesItems"),
        ("quiz", "quizzes"), ("perspective", "perspectives"), ("ox", "oxen"),
        ("photo", "photos"), ("buffalo", "buffaloes"), ("tomato", "tomatoes"),
        ("potato", "potatoes"), ("hero", "heroes"), ("echo", "echoes"), ("dwarf", "dwarves"),
        ("elf", "elves"), ("information", "informationItems"), ("equipment", "equipmentItems"),
        ("criterion", "criteria"), ("mouse", "mice"), ("louse", "lice"), ("house", "houses"),
        ("octopus", "octopi"), ("alias", "aliases"), ("status", "statuses"), ("bus", "buses"),
        ("axis", "axes"), ("crisis", "crises"), ("testis", "testes"), ("shoe", "shoes"),
        ("horse", "horses"), ("prize", "prizes"), ("edge", "edges"), ("matrix", "matrices"),
        ("vertex", "vertices"), ("cow", "cows"), ("zombie", "zombies"), ("virus", "viruses"),
        ("chairperson", "chairpeople"), ("grandchild", "grandchildren"),
        ("spokeswoman", "spokeswomen"), ("businessman", "businessmen"), ("human", "humans"),
        ("german", "germans"), ("bookshelf", "bookshelves"), ("housewife", "housewives"),
        ("blouse", "blouses"), ("mongoose", "mongooses"), ("hypothesis", "hypotheses"),
        ("iris", "irises"), ("deer", "deerItems"), ("software", "softwareItems"),
        ("wildlife", "wildlifeItems"), ("photoCaption", "photoCaptions"),
        ("salesPerson", "salesPeople"), ("piano", "pianos"), ("radio", "radios"),
    ])
    func pluralsFollowAnEstablishedInflector(singular: String, plural: String) {
        #expect(Names.plural(of: singular) == plural)
    }
}
