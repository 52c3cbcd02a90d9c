/// Every spelling of a model's name that generated code and file paths use, from one place.
public struct Names: Equatable, Sendable {
    /// The model type, `Question`.
    public let type: String
    /// A variable holding one model, `question`.
    public let variable: String
    /// A variable holding many, `questions`.
    public let pluralVariable: String

    /// The names for `typeName`; `plural` overrides the English plural of its variable.
    public init(typeName: String, plural: String? = nil) {
        type = typeName
        // `func`, `in` or `value` would clash with a keyword or a name the generated code uses.
        let clashes = { (name: String) in
            Identifier.swiftKeywords.contains(name)
                || Identifier.reservedVariableNames.contains(name)
        }
        var singular = Self.lowerCamelCase(typeName)
        if clashes(singular) || clashes(Self.plural(of: singular)) { singular += "Item" }
        variable = singular
        pluralVariable = plural ?? Self.plural(of: singular)
    }

    /// The names of `spec`'s model.
    public init(_ spec: ModelSpec) {
        self.init(typeName: spec.typeName, plural: spec.plural)
    }

    /// The repository actor, `QuestionRepository`.
    public var repository: String { type + "Repository" }
    /// The repository's error type, `QuestionRepositoryError`.
    public var repositoryError: String { type + "RepositoryError" }
    /// The file with the repository's API, the same for every storage:
    /// `QuestionRepository+API.swift`.
    public var repositoryAPIFile: String { repository + "+API.swift" }
    /// The list view-model, `QuestionListViewModel`.
    public var listViewModel: String { type + "ListViewModel" }
    /// The standalone package and its library module, `QuestionStore`.
    public var storePackage: String { type + "Store" }
    /// The file that migrates values stored by schema version `version` to the next one:
    /// `QuestionMigration1.swift`. Written once; it belongs to the person.
    public func migrationFile(from version: Int) -> String { type + "Migration\(version).swift" }

    /// The file with the frozen earlier versions of the model: `QuestionVersions.swift`.
    public var versionsFile: String { type + "Versions.swift" }
    /// The file handling every repository in a module shares, written once per module.
    public static let storeFilesFile = "StoreFiles.swift"
    /// The values in memory, their changes and observers, which every repository in a module
    /// shares, written once per module.
    public static let storedValuesFile = "StoredValues.swift"
    /// How a journal repository's values reach the disk, written once per module that has one.
    public static let journalStoreFile = "JournalStore.swift"
    /// How a snapshot repository's values reach the disk, written once per module that has one.
    public static let snapshotStoreFile = "SnapshotStore.swift"
    /// How a sqlite repository's values reach the module's database, written once per module
    /// that has one.
    public static let sqliteStoreFile = "SQLiteStore.swift"
    /// The typed queries of sqlite repositories and their view-models' windows, written once
    /// per module that has a sqlite repository.
    public static let storeQueryFile = "StoreQuery.swift"
    /// References, unique and indexed fields, and transactions across the sqlite models of a
    /// module, written once per module that has a sqlite repository.
    public static let sqliteRelationsFile = "SQLiteRelations.swift"
    /// The SQLite system library's module map and header (for Linux), written once per package
    /// that has a sqlite repository, in `Sources/CSQLite`.
    public static let sqliteLibraryTarget = "CSQLite"
    public static let sqliteModuleMapFile = "module.modulemap"
    public static let sqliteHeaderFile = "shim.h"
    /// The raw database access that sqlite repositories' tests share, written once per test
    /// target.
    public static let sqliteTestSupportFile = "StoredRows.swift"
    /// The list every view-model in a module keeps in order, written once per module.
    public static let liveListFile = "LiveList.swift"
    /// The sample values every model's tests build, written once per test target.
    public static let sampleDataFile = "SampleData.swift"
    /// The files that every model of a module (or of one storage) renders the same: written
    /// once, recorded for each model, and removed with the last of them.
    public static let sharedFiles: Set<String> = [
        storeFilesFile, storedValuesFile, journalStoreFile, snapshotStoreFile, liveListFile,
        sampleDataFile, sqliteStoreFile, storeQueryFile, sqliteRelationsFile, sqliteModuleMapFile,
        sqliteHeaderFile, sqliteTestSupportFile,
    ]

    /// Whether the file at `path` (relative to the package) is one of ``sharedFiles``.
    public static func isShared(_ path: String) -> Bool {
        sharedFiles.contains(String(path.split(separator: "/").last ?? ""))
    }

    /// The module a model goes into: its `--target`, or else the standalone package named after
    /// it (`QuestionStore`).
    public static func module(of typeName: String, target: String?) -> String {
        target ?? Names(typeName: typeName, plural: nil).storePackage
    }

    /// The SQLite database that every sqlite model of `module` shares: `QuestionStore.sqlite`.
    public static func databaseFileName(module: String) -> String { module + ".sqlite" }

    /// The namespace of the test helpers, `QuestionTestSupport`.
    public var testSupport: String { type + "TestSupport" }
    /// The top-level types generated for the model besides the model itself: its repository,
    /// the repository's error, its view-model and its test helpers.
    var generatedTypes: [String] { [repository, repositoryError, listViewModel, testSupport] }
    /// The JSON file of the snapshot store, `questions.json`.
    public var storeFileName: String { pluralVariable + ".json" }
    /// The journal store's snapshot, `questions.snapshot.json`.
    public var snapshotFileName: String { pluralVariable + ".snapshot.json" }
    /// The journal store's journal, `questions.journal`.
    public var journalFileName: String { pluralVariable + ".journal" }
    /// The journal store's lock file, `questions.lock`.
    public var lockFileName: String { pluralVariable + ".lock" }
    /// The files in which `storage` keeps the model's values: what a move to another storage
    /// imports (the snapshot and the journal, or the snapshot store's file).
    func valueFileNames(of storage: Storage) -> [String] {
        storage == .journal ? [snapshotFileName, journalFileName] : [storeFileName]
    }

    /// `Question` → `question`, `URLLink` → `urlLink`, `ID` → `id`.
    static func lowerCamelCase(_ name: String) -> String {
        let characters = Array(name)
        let upperRun = characters.prefix { $0.isUppercase }.count
        switch upperRun {
        case 0:
            return name
        case characters.count, 1:
            return name.prefix(upperRun).lowercased() + name.dropFirst(upperRun)
        default:
            // Keep the last capital of an acronym run: it starts the next word.
            let lowered = upperRun - 1
            return name.prefix(lowered).lowercased() + name.dropFirst(lowered)
        }
    }

    /// `blog_post`, `blogPost` and `BlogPost` all give `BlogPost`; capitals inside a word stay
    /// (`userID`, `URLLink`).
    static func typeName(fromAnyCase name: String) -> String {
        name.split(separator: "_").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// Plurals English does not form with -s or -es; the last word of a name is looked up, and
    /// a word that ends in one of the longer ones (`salesperson`, `grandchild`) follows it.
    private static let irregularPlurals: [String: String] = [
        "person": "people", "child": "children", "man": "men", "woman": "women",
        "mouse": "mice", "louse": "lice", "goose": "geese", "tooth": "teeth", "foot": "feet",
        "ox": "oxen", "leaf": "leaves", "knife": "knives", "life": "lives", "wife": "wives",
        "half": "halves", "shelf": "shelves", "wolf": "wolves", "calf": "calves",
        "loaf": "loaves", "thief": "thieves", "elf": "elves", "dwarf": "dwarves",
        "criterion": "criteria", "phenomenon": "phenomena", "quiz": "quizzes",
        "index": "indices", "matrix": "matrices", "vertex": "vertices", "appendix": "appendices",
        "datum": "data", "medium": "media", "curriculum": "curricula", "octopus": "octopi",
        "cactus": "cacti", "fungus": "fungi", "nucleus": "nuclei", "radius": "radii",
        "iris": "irises",
        // Words that end in one of the above but are not compounds of it.
        "blouse": "blouses", "mongoose": "mongooses",
    ]

    /// Words whose plural is the word itself: the list gets `…Items` (`newsItems`).
    private static let uncountable: Set<String> = [
        "advice", "aircraft", "baggage", "bison", "chassis", "deer", "equipment", "feedback",
        "fish", "furniture", "hardware", "headquarters", "information", "jeans", "knowledge",
        "luggage", "means", "metadata", "money", "moose", "music", "news", "offspring", "police",
        "rice", "salmon", "series", "sheep", "software", "species", "swine", "tennis", "traffic",
        "trout", "wildlife",
    ]

    /// Compounds of `man` (the word `human` is not one).
    private static let compoundsOfMan: Set<String> = [
        "alderman", "businessman", "cameraman", "chairman", "congressman", "craftsman",
        "doorman", "draftsman", "fireman", "fisherman", "foreman", "freshman", "gentleman",
        "horseman", "mailman", "milkman", "nobleman", "policeman", "postman", "repairman",
        "salesman", "snowman", "spokesman", "sportsman", "statesman", "watchman", "workman",
    ]

    /// Nouns in -o that take -oes.
    private static let pluralsInOes: Set<String> = [
        "buffalo", "cargo", "domino", "echo", "embargo", "hero", "mosquito", "motto", "potato",
        "tomato", "tornado", "torpedo", "veto", "volcano",
    ]

    /// The English plural of the last word: `category` → `categories`, `box` → `boxes`,
    /// `person` → `people`, `salesperson` → `salespeople`, `basis` → `bases`, `hero` →
    /// `heroes`, `blogPost` → `blogPosts`; a word whose plural is itself gets `…Items`.
    static func plural(of word: String) -> String {
        let lastWordStart = word.lastIndex(where: \.isUppercase) ?? word.startIndex
        let head = word[..<lastWordStart]
        let lastWord = String(word[lastWordStart...])
        let lower = lastWord.lowercased()
        /// `replacement` for the last `count` letters, capitalized as the word was.
        let replacing = { (count: Int, replacement: String) -> String in
            let kept = lastWord.dropLast(count)
            let spelled =
                kept.isEmpty && lastWord.first?.isUppercase == true
                ? replacement.prefix(1).uppercased() + replacement.dropFirst() : replacement
            return head + kept + spelled
        }
        if uncountable.contains(lower) { return word + "Items" }
        if let irregular = irregularPlurals[lower] { return replacing(lower.count, irregular) }
        if compoundsOfMan.contains(lower) { return replacing(3, "men") }
        if let (singular, plural) = irregularPlurals.filter({ $0.key.count >= 4 })
            .sorted(by: { $0.key.count > $1.key.count })
            .first(where: { lower.hasSuffix($0.key) })
        {
            return replacing(singular.count, plural)
        }
        let vowels: Set<Character> = ["a", "e", "i", "o", "u"]
        if lower.hasSuffix("y"), let beforeY = lower.dropLast().last, !vowels.contains(beforeY) {
            return replacing(1, "ies")
        }
        if lower.hasSuffix("is") { return replacing(2, "es") }
        if pluralsInOes.contains(lower) { return word + "es" }
        if ["s", "x", "z", "ch", "sh"].contains(where: { lower.hasSuffix($0) }) {
            return word + "es"
        }
        return word + "s"
    }
}
